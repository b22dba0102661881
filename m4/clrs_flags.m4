# CLRS_CHECK_CFLAGS(VARIABLE, FLAGS)
# Appends to VARIABLE each flag of FLAGS that the C compiler accepts.
AC_DEFUN([CLRS_CHECK_CFLAGS], [
  for clrs_flag in $2; do
    AC_MSG_CHECKING([whether $CC accepts $clrs_flag])
    clrs_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS $clrs_flag -Werror"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
      [AC_MSG_RESULT([yes]); $1="$$1 $clrs_flag"],
      [AC_MSG_RESULT([no])])
    CFLAGS=$clrs_save_CFLAGS
  done
])

# CLRS_CHECK_FUZZER
# Sets FUZZ_CC to a C compiler that builds and links a libFuzzer target
# with -fsanitize=fuzzer,address,undefined: FUZZ_CC from the environment,
# else the first of clang, clang-15, clang-14 that does; empty when none
# does (make fuzz then says so, tests/test_fuzz.sh skips).
AC_DEFUN([CLRS_CHECK_FUZZER], [
  AC_ARG_VAR([FUZZ_CC],
    [C compiler with libFuzzer for the fuzz targets (default: the first of clang, clang-15, clang-14 that links -fsanitize=fuzzer)])
  AC_MSG_CHECKING([for a C compiler with libFuzzer])
  clrs_fuzz_cc=
  printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
    '{ (void)d; (void)n; return 0; }' >conftest_fuzz.c
  for clrs_cc in ${FUZZ_CC:-clang clang-15 clang-14}; do
    if $clrs_cc -fsanitize=fuzzer,address,undefined conftest_fuzz.c \
        -o conftest_fuzz$EXEEXT >&AS_MESSAGE_LOG_FD 2>&1; then
      clrs_fuzz_cc=$clrs_cc
      break
    fi
  done
  rm -f conftest_fuzz.c conftest_fuzz$EXEEXT
  FUZZ_CC=$clrs_fuzz_cc
  AC_MSG_RESULT([${FUZZ_CC:-none}])
  AC_SUBST([FUZZ_CC])
  AM_CONDITIONAL([HAVE_FUZZER], [test -n "$FUZZ_CC"])
])
