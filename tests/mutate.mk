# make mutate: the mutation tests of tests/mutations.txt (also run by make check).
.PHONY: mutate
mutate: all $(B)/run_rule_tests $(B)/abi_harness $(B)/fault_tests
	$(Q)tests/mutate.sh -v
