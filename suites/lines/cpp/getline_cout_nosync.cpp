// Strategy: std::getline on an std::ifstream + std::cout << line << '\n' after std::ios::sync_with_stdio(false) (cout gets its own buffer).
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char **argv) {
    std::ios::sync_with_stdio(false);
    if (argc != 2) {
        std::cerr << "usage: " << argv[0] << " FILE\n";
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::cerr << argv[1] << ": " << std::strerror(errno) << '\n';
        return 1;
    }
    std::string line;
    while (std::getline(in, line)) {
        std::cout << line;
        // getline drops the '\n'; it hit end of file first only on a last line without one.
        if (!in.eof()) std::cout << '\n';
    }
    if (in.bad()) {
        std::cerr << argv[1] << ": read error\n";
        return 1;
    }
    std::cout.flush();
    if (!std::cout) {
        std::cerr << "write error\n";
        return 1;
    }
    return 0;
}
