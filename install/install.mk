# make install and make uninstall, after the GNU conventions: PREFIX
# (default /usr/local), DESTDIR for packaging, and BINDIR, LIBDIR,
# INCLUDEDIR, MANDIR. Included by the Makefile.
#
# Installed: uarchgen and the portable probe (uarchcopy-probe) in BINDIR;
# libuarchcopy.so.VERSION with its SONAME link libuarchcopy.so.SOVERSION
# and the link libuarchcopy.so, libuarchcopy.a and pkgconfig/uarchcopy.pc
# in LIBDIR; uarch.db, templates/ and the evidence the database cites in
# DATADIR/uarchcopy, where uarchgen looks for them, relative to itself, as
# ../share/uarchcopy (gen/data_dir.c: keep BINDIR and DATADIR so); the man
# pages uarchgen(1), uarchcopy-probe(1) and libuarchcopy(7) in MANDIR. No
# header: the library exports only the C library's own memcpy and memmove.
PREFIX      ?= /usr/local
EXEC_PREFIX ?= $(PREFIX)
BINDIR      ?= $(EXEC_PREFIX)/bin
LIBDIR      ?= $(EXEC_PREFIX)/lib
INCLUDEDIR  ?= $(PREFIX)/include
DATADIR     ?= $(PREFIX)/share
MANDIR      ?= $(DATADIR)/man
VERSION     := 1.0.0
SOVERSION   := 1

# The man pages, from the commands' --help and, for the library's, from
# install/libuarchcopy.7.in with preload/uarchcopy.c's list of its
# environment: each page has one source. The library's page and the
# pkg-config file name LIBDIR and PREFIX, so install writes them.
MAN_PAGES := $(B)/man/uarchgen.1 $(B)/man/uarchcopy-probe.1 $(B)/man/libuarchcopy.env
$(B)/man/uarchgen.1: $(GEN) install/help2man.sh
	@mkdir -p $(@D)
	$(Q)$(GEN) --help | install/help2man.sh uarchgen 1 $(VERSION) >$@.tmp && mv $@.tmp $@
$(B)/man/uarchcopy-probe.1: $(B)/uarchcopy-probe install/help2man.sh
	@mkdir -p $(@D)
	$(Q)$(B)/uarchcopy-probe --help | install/help2man.sh uarchcopy-probe 1 $(VERSION) >$@.tmp && mv $@.tmp $@
# The environment section of libuarchcopy(7).
$(B)/man/libuarchcopy.env: preload/uarchcopy.c
	@mkdir -p $(@D)
	$(Q)sed -n '/Environment, read once at load:/,/\*\//{ /Environment, read/d; s/^ \*\/*//; s/ *\*\/$$//; p; }' $< | \
		sed 's/\\/\\e/g' >$@.tmp && mv $@.tmp $@

# The evidence uarchgen checks beside the database: each rule's summary,
# each run's archive (whose checksum the run records) or, for a run
# recorded before archives, its measurements. The plots stay in the
# checkout.
EVIDENCE_FILES = $(wildcard evidence/*/summary.md evidence/*/run.archive evidence/*/measurements.csv)
SHARE = $(DESTDIR)$(DATADIR)/uarchcopy
LIB_REAL = libuarchcopy.so.$(VERSION)

.PHONY: install uninstall
install: all $(B)/uarchcopy-probe $(MAN_PAGES)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7 $(SHARE)
	install -m 755 $(GEN) $(DESTDIR)$(BINDIR)/uarchgen
	install -m 755 $(B)/uarchcopy-probe $(DESTDIR)$(BINDIR)/uarchcopy-probe
	install -m 755 $(B)/libuarchcopy.so $(DESTDIR)$(LIBDIR)/$(LIB_REAL)
	ln -sf $(LIB_REAL) $(DESTDIR)$(LIBDIR)/libuarchcopy.so.$(SOVERSION)
	ln -sf libuarchcopy.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libuarchcopy.so
	install -m 644 $(B)/libuarchcopy.a $(DESTDIR)$(LIBDIR)/libuarchcopy.a
	sed 's|@PREFIX@|$(PREFIX)|; s|@EXEC_PREFIX@|$(EXEC_PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|; s|@VERSION@|$(VERSION)|' \
		install/uarchcopy.pc.in >$(DESTDIR)$(LIBDIR)/pkgconfig/uarchcopy.pc
	install -m 644 $(B)/man/uarchgen.1 $(B)/man/uarchcopy-probe.1 $(DESTDIR)$(MANDIR)/man1/
	sed -e 's|@VERSION@|$(VERSION)|g; s|@SOVERSION@|$(SOVERSION)|g; s|@LIBDIR@|$(LIBDIR)|g' \
		-e '/@ENVIRONMENT@/{ r $(B)/man/libuarchcopy.env' -e 'd; }' install/libuarchcopy.7.in >$(DESTDIR)$(MANDIR)/man7/libuarchcopy.7
	install -m 644 uarch.db $(SHARE)/uarch.db
	@echo "install -D -m 644 templates/... $(SHARE)/templates/"
	$(Q)cd templates && find . -type f | while read -r f; do install -D -m 644 "$$f" "$(SHARE)/templates/$$f" || exit 1; done
	@echo "install -D -m 644 evidence/... $(SHARE)/evidence/"
	$(Q)for f in $(EVIDENCE_FILES); do install -D -m 644 "$$f" "$(SHARE)/$$f" || exit 1; done

# Removes what install put there, then the folders it made that are left
# empty: uarchcopy's own always, the shared ones (bin, lib, man...) only
# under a DESTDIR, never above it.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/uarchgen $(DESTDIR)$(BINDIR)/uarchcopy-probe
	rm -f $(DESTDIR)$(LIBDIR)/$(LIB_REAL) $(DESTDIR)$(LIBDIR)/libuarchcopy.so.$(SOVERSION) \
	      $(DESTDIR)$(LIBDIR)/libuarchcopy.so $(DESTDIR)$(LIBDIR)/libuarchcopy.a $(DESTDIR)$(LIBDIR)/pkgconfig/uarchcopy.pc
	rm -f $(DESTDIR)$(MANDIR)/man1/uarchgen.1 $(DESTDIR)$(MANDIR)/man1/uarchcopy-probe.1 $(DESTDIR)$(MANDIR)/man7/libuarchcopy.7
	rm -rf $(SHARE)
	$(Q)if [ -n "$(DESTDIR)" ]; then \
		for d in $(BINDIR) $(LIBDIR)/pkgconfig $(LIBDIR) $(MANDIR)/man1 $(MANDIR)/man7 $(MANDIR) $(DATADIR) \
			 $(EXEC_PREFIX) $(PREFIX); do \
			while [ "$$d" != / ] && [ -n "$$d" ] && rmdir "$(DESTDIR)$$d" 2>/dev/null; do d=$$(dirname "$$d"); done; \
		done; \
	fi
