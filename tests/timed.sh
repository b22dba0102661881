# Runs a test (its command line in "$@") and ends its log with its wall
# time, a TAP comment, so the slow tests show (make check's
# LOG_COMPILER and SH_LOG_COMPILER). The test's exit status is kept.
start=$(date +%s.%N)
"$@"
rc=$?
echo "# wall time: $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
exit $rc
