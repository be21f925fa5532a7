// DataInputStream(BufferedInputStream(FileInputStream, 64 KiB)).readFully per field.
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;

public final class RdbReadFully {
    /** The strategy's stream: this program's, and the differential fuzz driver's (../fuzz/RdbFuzzBatch.java). */
    static DataInputStream open(String path) throws IOException {
        return new DataInputStream(new BufferedInputStream(new FileInputStream(path), 64 << 10));
    }

    public static void main(String[] args) {
        RdbParser.run(args, (path, size) -> {
            size[0] = new File(path).length();
            return open(path)::readFully;
        });
    }
}
