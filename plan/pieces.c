/* The copies' pieces (pieces.h). */
#include "pieces.h"

/* avx512_medium's moves of 33..63, of 64..128, and of 129..1024 (its
 * loads of 129 bytes on, then its compares at 256 and 512). */
const struct plan_piece plan_pieces[N_PLAN_PIECES] = {
	{STRATEGY_AVX512_MEDIUM, 33, 63},
	{STRATEGY_AVX512_MEDIUM, 64, 128},
	{STRATEGY_AVX512_MEDIUM, 129, 1024},
};

int plan_piece_of(int strategy, unsigned int lo, unsigned int hi)
{
	for (int i = 0; i < N_PLAN_PIECES; i++)
		if (plan_pieces[i].strategy == strategy && plan_pieces[i].lo <= lo && hi <= plan_pieces[i].hi)
			return i;
	return -1;
}

unsigned int plan_piece_cut(int strategy, unsigned int lo, unsigned int hi)
{
	for (int i = 0; i < N_PLAN_PIECES; i++)
		if (plan_pieces[i].strategy == strategy && plan_pieces[i].hi >= lo && plan_pieces[i].hi < hi)
			return plan_pieces[i].hi;
	return 0;
}
