#include "size_profile.h"

const struct size_freq size_profile[] = {
	{8, 576}, {104, 94}, {24, 78}, {48, 58}, {32, 48}, {16, 46}, {1, 30},  {96, 12}, {72, 11}, {216, 11},
	{192, 8}, {12, 7},   {144, 5}, {2, 4},   {64, 4},  {120, 4}, {4, 3},   {40, 2},  {7, 2},   {168, 2},
	{160, 2}, {128, 1},  {3, 1},   {9, 1},   {176, 1}, {240, 1}, {11, 1},  {0, 1},   {5, 1},   {6, 1},
	{80, 1},  {52, 1},   {152, 1}, {10, 1},  {56, 1},  {51, 1},  {14, 1},  {208, 1},
};
const size_t n_size_profile = sizeof size_profile / sizeof *size_profile;

unsigned int size_profile_weight(unsigned int lo, unsigned int hi)
{
	unsigned int w = 0;
	for (size_t i = 0; i < n_size_profile; i++)
		if (size_profile[i].value >= lo && size_profile[i].value <= hi)
			w += size_profile[i].freq;
	return w;
}
