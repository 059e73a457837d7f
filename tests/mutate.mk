# make mutate: the mutation tests of tests/mutations.txt, per flavor (also run by make check).
.PHONY: mutate
mutate: all $(foreach f,$(FLAVORS),$(B)/$(f)/run_rule_tests $(B)/$(f)/abi_harness $(B)/$(f)/fault_tests)
	$(Q)for f in $(FLAVORS); do tests/mutate.sh -v $$f || exit 1; done
