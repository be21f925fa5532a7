// Strategy (iopipeByLineInIOOut): iopipe-style buffer window, byLineRange without the newline; std.io's File.write(line, "\n"): one writev(2) of the line and "\n" to fd 1 per line.
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
            if (lines.terminated)
                output.write(lines.front, "\n");   // one writev(2) of both, as std.io's File.write
            else
                output.write(lines.front);
        }
    }
    catch (Exception e)
    {
        stderr.writeln(args[1], ": ", e.msg);
        return 1;
    }
    return 0;
}
