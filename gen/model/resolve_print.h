/* The lookup and flavors commands: what model.c resolves, as lines that
 * scripts read (key=value), so no script parses the report meant for people. */
#ifndef UARCHGEN_RESOLVE_PRINT_H
#define UARCHGEN_RESOLVE_PRINT_H

#include "model.h"

/* uarchgen lookup VENDOR FAMILY MODEL [--flavor F]. */
int print_lookup(const struct model *m, const char *vendor, const char *family, const char *model,
		 const char *flavor);

/* uarchgen flavors: "name isa red_zone" per flavor. */
int print_flavors(const struct model *m);

#endif
