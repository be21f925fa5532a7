/* Strategy: none - a syntax error, so the build fails. */
int main(void) { return this is not C; }
