# The oldest Rust the crate declares (rust-version in its Cargo.toml) is
# Debian 12's own, Rust 1.63, whose packages conflict with the current
# Rust's (rustc-web, cargo-web): make deps downloads them and unpacks them
# with dpkg-deb into RUST_FLOOR, installing nothing, and
# tests/rust_floor.sh, which names the same folder, builds and tests the
# crate with the rustc and cargo there. That rustc runs on libllvm14 and
# that cargo on libgit2, libssh2 and libcurl-gnutls, which make deps
# installs as usual (RUST_FLOOR_LIBS).
RUST_FLOOR      := /opt/uarchcopy/rust-1.63
RUST_FLOOR_DEBS := rustc cargo libstd-rust-1.63 libstd-rust-dev
RUST_FLOOR_LIBS := libllvm14 libgit2-1.5 libssh2-1 libcurl3-gnutls

# make rust-floor (root, after apt-get update; make deps runs it):
# RUST_FLOOR made again, whole, from Debian's archive. The folder apt
# downloads into is _apt's, so that apt's sandbox may write it.
.PHONY: rust-floor
rust-floor:
	rm -rf $(RUST_FLOOR).new && mkdir -p $(RUST_FLOOR).new/debs && chown _apt $(RUST_FLOOR).new/debs
	cd $(RUST_FLOOR).new/debs && apt-get download -qq $(RUST_FLOOR_DEBS)
	for d in $(RUST_FLOOR).new/debs/*.deb; do dpkg-deb -x "$$d" $(RUST_FLOOR).new || exit 1; done
	rm -rf $(RUST_FLOOR).new/debs $(RUST_FLOOR) && mv $(RUST_FLOOR).new $(RUST_FLOOR)
	LD_LIBRARY_PATH=$(RUST_FLOOR)/usr/lib/x86_64-linux-gnu $(RUST_FLOOR)/usr/bin/rustc --version
