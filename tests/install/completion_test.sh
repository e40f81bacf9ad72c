#!/bin/bash
# SPDX-License-Identifier: MIT
# The bash completion the build generated (`nicsim generate bash-completion`, installed as
# share/bash-completion/completions/nicsim): it is what the binary prints now, it offers every
# subcommand `nicsim --help` lists and every option each `nicsim SUB --help` lists, and it
# completes YAML, JSON, directory and member arguments.
# usage: completion_test.sh <nicsim> <generated script> <work dir>
set -eu
nicsim=$1
script=$2
work=$3
fail() { echo "completion test: $*" >&2; exit 1; }

diff <("$nicsim" generate bash-completion) "$script" >/dev/null ||
    fail "$script differs from what 'nicsim generate bash-completion' prints: rebuild"
bash -n "$script" || fail "$script is not valid bash"
# shellcheck source=/dev/null
source "$script"
complete -p nicsim | grep -q _nicsim || fail "no 'complete' for nicsim"

# The sorted completions of the last word, as one line.
comp() {
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMPREPLY=()
    _nicsim
    if ((${#COMPREPLY[@]})); then printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '; fi
}
has() { # has WORD LIST...
    local w=$1
    shift
    [[ " $* " == *" $w "* ]]
}
# The names in an `Options:` listing of CLI11's help: the first field of lines "  -x,--xx ...".
help_options() { "$nicsim" "$@" --help | sed -n 's/^  \(-[^ ]*\).*/\1/p' | tr ',' '\n'; }
help_subcommands() { "$nicsim" --help | sed -n '/^Subcommands:/,/^$/s/^  \([a-z][-a-z]*\) .*/\1/p'; }

subs=$(help_subcommands)
[[ -n $subs ]] || fail "no subcommands found in 'nicsim --help'"
top=$(comp nicsim "")
# `generate` is the build's, not the user's: hidden from --help and from the completion.
has generate $subs $top && fail "the hidden subcommand 'generate' is offered"
for s in $subs; do
    has "$s" $top || fail "'nicsim <TAB>' does not offer $s (got: $top)"
    opts=$(comp nicsim "$s" -)
    for o in $(help_options "$s"); do
        has "$o" $opts || fail "'nicsim $s -<TAB>' does not offer $o (got: $opts)"
    done
done
for o in $(help_options); do
    has "$o" $(comp nicsim -) || fail "'nicsim -<TAB>' does not offer $o"
done

rm -rf "$work"
mkdir -p "$work/sub"
cd "$work"
touch a.yaml b.yml r.json notes.txt
expect() { # expect "WANTED" words...
    local want=$1 got
    shift
    got=$(comp "$@")
    [[ $got == "$want" ]] || fail "'$*<TAB>': expected '$want', got '$got'"
}
expect "a.yaml b.yml sub " nicsim run ""
expect "a.yaml b.yml sub " nicsim check --set x=1 a.yaml ""
expect "r.json sub " nicsim compare ""
expect "sub " nicsim sweep --out ""
expect "a.yaml b.yml notes.txt r.json sub " nicsim run a.yaml --json ""
expect "gtkwave sigrok " nicsim run a.yaml --vcd-format ""
expect "" nicsim run --set ""
expect "a.yaml b.yml sub " nicsim run -q ""
expect "r.json sub " nicsim compare --label x ""
expect "validate validate-config " nicsim val
expect "--json " nicsim run --js
echo "completion test: ok"
