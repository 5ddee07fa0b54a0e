#!/bin/bash
# make check-long: the soak, 10 million system calls for each of several
# seeds, one of them new each run (tests/sysfuzz/check.sh, SYSFUZZ_LONG).
cd "$(dirname "$0")/../.." || exit 1
SYSFUZZ_LONG=1 exec bash tests/sysfuzz/check.sh "$@"
