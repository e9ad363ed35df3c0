#!/bin/sh
# gen-man.sh TOOL NAME OUT - the man page (section 1) of a gcut tool from its
# --help and --version (the same text, so the two never drift apart), run at
# build time (demos/CMakeLists.txt, bench/CMakeLists.txt; help2man's idea
# in a few lines of awk, no extra package).
#
# --help's layout: `usage: NAME ...` and continuation lines starting with
# spaces and NAME (the SYNOPSIS), then a one-line summary (NAME's
# description), then free text; a line at column 0 ending with ':' is a
# subsection title. The text is kept preformatted (.nf), so tables align as
# on a terminal.
set -eu
tool=$1 name=$2 out=$3
help=$("$tool" --help)
version=$("$tool" --version | head -n 1 | awk '{print $NF}')
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
printf '%s\n' "$help" | awk -v name="$name" -v version="$version" '
function esc(s) {
    gsub(/\\/, "\\e", s)
    gsub(/-/, "\\-", s)
    if (s ~ /^[.\047]/) s = "\\&" s
    return s
}
BEGIN { state = "usage"; nf = 0; uc = toupper(name) }
state == "usage" && /^usage: / {
    sub(/^usage: /, "")
    syn[++ns] = $0
    next
}
state == "usage" && ns > 0 && $0 ~ ("^ +" name "( |$)") {
    sub(/^ +/, "")
    syn[++ns] = $0
    next
}
state == "usage" {
    desc = $0
    sub(/\.$/, "", desc)
    printf ".TH %s 1 \"\" \"gcut %s\" \"User Commands\"\n", uc, version
    printf ".SH NAME\n%s \\- %s\n", esc(name), esc(desc)
    printf ".SH SYNOPSIS\n.nf\n"
    for (i = 1; i <= ns; i++) printf "%s\n", esc(syn[i])
    printf ".fi\n.SH DESCRIPTION\n%s.\n.nf\n", esc(desc)
    state = "body"
    next
}
state == "body" && /^[^ ].*:$/ && length($0) < 60 {
    t = $0
    sub(/:$/, "", t)
    printf ".fi\n.SS %s\n.nf\n", esc(t)
    next
}
state == "body" { printf "%s\n", ($0 == "" ? "" : esc($0)) }
END {
    if (state != "body") { print "gen-man.sh: no usage line in --help" > "/dev/stderr"; exit 1 }
    printf ".fi\n.SH \"SEE ALSO\"\n"
    printf "gcut\\-maxflow(1), gcut\\-match(1), gcut\\-seg(1), gcut\\-stereo(1), gcut\\-mvs(1),\n"
    printf "gcut\\-gen(1), gcut\\-bench(1); docs/getting\\-started.md in the gcut sources.\n"
}' > "$tmp"
mv "$tmp" "$out"
trap - EXIT
