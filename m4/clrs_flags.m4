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
