# make mutate: the mutation tests of tests/mutations.txt, per flavor (also run by make check),
# then the Rust crate's of tests/rust/mutations.txt (cargo test against each mutant).
.PHONY: mutate
# The fault tests (and the remaining contract's) exist only for a flavor with user copies.
mutate: all $(foreach f,$(FLAVORS),$(B)/$(f)/run_rule_tests $(B)/$(f)/abi_harness) \
	$(foreach f,$(USER_COPY_FLAVORS),$(B)/$(f)/fault_tests $(B)/$(f)/fault_tests_remaining)
	$(Q)for f in $(FLAVORS); do tests/mutate.sh -v $$f || exit 1; done
	$(Q)for f in $(FLAVORS); do tests/rust_mutate.sh -v $$f || exit 1; done
