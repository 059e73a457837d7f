/* Refuses two rows of one key in any table the generator reads (keys.c). */
#ifndef UARCHGEN_KEYS_H
#define UARCHGEN_KEYS_H

struct loader;
void check_keys(struct loader *l);

#endif
