# tests/suites/programs.sh: suite programs: users' own programs built by the
# installed hpm-cc, through the installed hpmctl (tests/programs/run.py, one
# t_*.py module per concern): programs that write where they should not,
# never end, take arguments, fail or outlive the link's time-outs.
suite_programs() { python_suite programs tests/programs/run.py; }
