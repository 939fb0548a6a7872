#!/usr/bin/env bash
# check_man_page.sh PAGE [COMMAND...]: the man page file PAGE renders without warnings and
# names every long option that each COMMAND's --help lists (a COMMAND is split on spaces:
# "iomark run"). Exit 0, or 1 with one line per problem. The package install test runs it
# on the installed pages, ctest (man_page_*) on the pages of the build tree.
set -uo pipefail
page=$1
shift
warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E ascii -l "$page" 2>&1 >/dev/null)
if [[ -n $warnings ]]; then
  echo "$page renders with warnings: $warnings"
  exit 1
fi
text=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -E ascii -l "$page" 2>/dev/null | col -b)
[[ -n $text ]] || { echo "$page renders empty"; exit 1; }
status=0
for help_command in "$@"; do
  # shellcheck disable=SC2086 # the command and its subcommand are separate words
  help=$($help_command --help) || { echo "'$help_command --help' failed"; status=1; continue; }
  for flag in $(grep -o -- '--[a-z][a-z-]*' <<<"$help" | sort -u); do
    grep -q -- "$flag" <<<"$text" || { echo "$page does not document $flag of '$help_command'"; status=1; }
  done
done
exit $status
