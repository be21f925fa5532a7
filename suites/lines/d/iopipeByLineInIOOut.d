// Strategy (iopipeByLineInIOOut): iopipe-style buffer window, byLineRange without the newline; the line and "\n" each go out with a raw write(2) to fd 1 (std.io).
module iopipeByLineInIOOut;

import std.stdio : stderr;
import iopipe_lite : IOFile, byLineRange;

int main(string[] args)
{
    if (args.length != 2)
    {
        stderr.writeln("usage: ", args[0], " FILE");
        return 2;
    }
    try
    {
        auto output = IOFile.stdout();
        auto lines = byLineRange!false(IOFile.open(args[1]));
        for (; !lines.empty; lines.popFront())
        {
            output.write(lines.front);
            if (lines.terminated)
                output.write("\n");
        }
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
