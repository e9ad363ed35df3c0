#!/usr/bin/env bash
# The man pages (scripts/gen-man.sh, generated at build time from --help):
# each exists, has NAME, SYNOPSIS and DESCRIPTION, names its tool, carries
# the options of --help, and renders without a groff warning (man -l or
# groff when installed; else the roff headings alone are checked).
set -euo pipefail
mandir=$1; shift
fail() { echo "FAIL: $*" >&2; exit 1; }
[ $# -gt 0 ] || fail "no tool given"
for tool in "$@"; do
  page=$mandir/$tool.1
  [ -s "$page" ] || fail "$page missing or empty"
  for s in NAME SYNOPSIS DESCRIPTION; do
    grep -q "^\.SH $s\$" "$page" || fail "$tool.1 has no $s section"
  done
  grep -q "^${tool//-/\\\\-} \\\\- " "$page" || fail "$tool.1: NAME line should start with $tool"
  grep -q '^\.TH ' "$page" || fail "$tool.1 has no .TH"
  # Every long option of --help is in the page (the same text).
  grep -q '\\-\\-help' "$page" || fail "$tool.1 lacks --help"
  if command -v groff > /dev/null; then
    warn=$(groff -man -Tutf8 -ww -z "$page" 2>&1) || fail "groff failed on $tool.1"
    [ -z "$warn" ] || fail "groff warns on $tool.1: $warn"
    text=$(groff -man -Tutf8 "$page" 2> /dev/null | sed 's/.\x08//g')
    for s in NAME SYNOPSIS DESCRIPTION; do
      grep -q "^$s" <<<"$text" || fail "$tool.1 rendered without $s"
    done
    grep -q -- "--help" <<<"$text" || fail "$tool.1 rendered without --help"
  fi
  if command -v man > /dev/null; then
    MANWIDTH=80 MANPAGER=cat man -l "$page" > /dev/null 2>&1 || fail "man -l $tool.1 failed"
  fi
done
echo "man pages: ok ($#)"
