// DataInputStream(BufferedInputStream(FileInputStream, 64 KiB)).readFully per field.
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.FileInputStream;

public final class RdbReadFully {
    public static void main(String[] args) {
        RdbParser.run(args, (path, size) -> {
            size[0] = new File(path).length();
            DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(path), 64 << 10));
            return in::readFully;
        });
    }
}
