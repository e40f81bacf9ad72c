#!/bin/bash
# SPDX-License-Identifier: MIT
# nicsim(1) as the build generated it (`nicsim generate man`, installed as share/man/man1/nicsim.1):
# it is what the binary prints now, groff renders it without warnings, and the rendered page
# names every subcommand of `nicsim --help` and every option of each `nicsim SUB --help`.
# usage: man_test.sh <nicsim> <generated page>
set -eu
nicsim=$1
page=$2
fail() { echo "man test: $*" >&2; exit 1; }

diff <("$nicsim" generate man) "$page" >/dev/null ||
    fail "$page differs from what 'nicsim generate man' prints: rebuild"
warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
[[ -z $warnings ]] || fail "groff warns: $warnings"
# What `man -l` shows, without hyphenation or adjustment so names stay whole.
text=$(MANWIDTH=200 MAN_KEEP_FORMATTING= man -l "$page" 2>/dev/null | col -bx)
[[ $text == *"NAME"*"SYNOPSIS"*"COMMANDS"*"EXIT STATUS"* ]] || fail "sections missing"
subs=$("$nicsim" --help | sed -n '/^Subcommands:/,/^$/s/^  \([a-z][-a-z]*\) .*/\1/p')
[[ -n $subs ]] || fail "no subcommands found in 'nicsim --help'"
for s in $subs; do
    grep -qx "   $s" <<<"$text" || fail "no section for the subcommand $s"
    # The subsection of $s: up to the next subsection (3 spaces) or section (none).
    section=$(awk -v h="   $s" '$0 == h { on = 1; next } on && /^(   )?[^ ]/ { exit } on' <<<"$text")
    grep -q "nicsim $s \[options\]" <<<"$section" || fail "no synopsis for $s"
    for o in $("$nicsim" "$s" --help | sed -n 's/^  \(-[^ ]*\).*/\1/p' | tr ',' '\n'); do
        grep -qE -- "^       (.*, )?$o(,| |$)" <<<"$section" || fail "option $o of $s not in its section"
    done
done
echo "man test: ok"
