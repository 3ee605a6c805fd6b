#include <unistd.h>

#include <iostream>

#include "cli.hpp"

int main(int argc, char** argv) {
  return tinkertoy::cli::run({argv + 1, argv + argc}, std::cout, std::cerr, isatty(STDERR_FILENO) == 1);
}
