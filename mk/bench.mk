# bench.mk: make bench measures speed, CPI and FPGA area/Fmax and writes
# docs/BENCHMARKS.md (bench/bench.sh says how each figure was produced).

.PHONY: bench
bench: all $(TEST_C_ELFS) synth
	BUILD=$(BUILD) bench/bench.sh $(TEST_C_ELFS) > docs/BENCHMARKS.md.tmp
	mv docs/BENCHMARKS.md.tmp docs/BENCHMARKS.md
	@cat docs/BENCHMARKS.md
