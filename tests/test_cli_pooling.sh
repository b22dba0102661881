#!/bin/sh
# make check's run of the pooling, options and post-op batches through
# clresample --mode=C: tests/test_cli_batches.sh with cli_part=pooling
# (it runs the other batches itself), so that make -j2 check runs the
# two halves side by side.
cli_part=pooling
. "${top_srcdir:-.}/tests/test_cli_batches.sh"
