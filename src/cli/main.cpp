// STUB main, replaced by the CLI.
#include <cstdio>
int main() { std::puts("gpudoctor"); return 0; }
