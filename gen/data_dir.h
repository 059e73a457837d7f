/* Where uarchgen finds uarch.db and templates/ when no option names them:
 * in this directory, as in a checkout, or else where `make install` put
 * them, <the program's directory>/../share/uarchcopy/. Only the commands
 * that read: import and rederive write, and take the database here or
 * by --db. */
#ifndef UARCHGEN_DATA_DIR_H
#define UARCHGEN_DATA_DIR_H

/* Points *db_path at the installed database when it is "uarch.db" (the
 * default) and there is none here, and *templates_dir at the installed
 * templates likewise: paths given by option are kept. The strings it sets
 * live as long as the program. */
void data_dir_settle(const char **db_path, const char **templates_dir);

#endif
