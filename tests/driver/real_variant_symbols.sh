#!/bin/sh
# Usage: real_variant_symbols.sh <real-header variant object> <anchor>
# The object (kernel/cmake/RealVariant.cmake) defines no global but its anchor, so it links
# beside the other tree's and the shadow-header variants, and takes no printf-family function
# from the C library (kernel/cmake/real_variant.syms binds them to lx_emul's).
obj=$1
anchor=$2
globals=$(nm --defined-only -g "$obj" | awk '{print $3}')
if [ "$globals" != "$anchor" ]; then
    echo "$obj: globals other than $anchor:" $globals
    exit 1
fi
libc_printf=$(nm -u "$obj" | awk '{print $2}' | grep -xE 'v?s(n|cn)?printf')
if [ -n "$libc_printf" ]; then
    echo "$obj: the C library's" $libc_printf
    exit 1
fi
if ! nm -u "$obj" | awk '{print $2}' | grep -qx lx_emul_snprintf; then
    echo "$obj: snprintf not bound to lx_emul_snprintf"
    exit 1
fi
echo "$obj: only $anchor global; printf family lx_emul's"
