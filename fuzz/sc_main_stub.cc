// SPDX-License-Identifier: MIT
// libsystemc.so brings its own main() that calls sc_main(); the fuzz targets run libFuzzer's
// main() instead (the executable's wins), but the library still needs the symbol.
extern "C" int sc_main(int, char*[]) {
    return 1;
}
