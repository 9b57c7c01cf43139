# tests/suites/cli.sh: suite cli: hpmctl (host/cli) on the simulated board,
# tests/cli/test_cli.py: every subcommand and output format (CSV/JSON
# parsed), counts equal to the reference, argument errors, validate --all,
# and validate failing on build/bin/hpm-sim-fault (HPM_SIM_FAULT).
suite_cli() { python_suite cli tests/cli/test_cli.py; }
