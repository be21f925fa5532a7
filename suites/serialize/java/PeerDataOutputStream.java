// Peer: java.io.DataOutputStream (big-endian, Cerealed's exact bytes) over a new ByteArrayOutputStream per op, toByteArray() as the message.
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;

public final class PeerDataOutputStream {
    public static void main(String[] args) {
        Job job = Job.parse("PeerDataOutputStream", args);
        job.timeSer((r, n, tally) -> {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(r.id);
            out.writeByte(r.kind);
            out.writeShort(r.delta);
            out.writeLong(r.stamp);
            out.writeBoolean(r.active);
            out.writeInt(Float.floatToRawIntBits(r.ratio));
            out.writeLong(Double.doubleToRawLongBits(r.value));
            for (short d : r.dims) {
                out.writeShort(d);
            }
            out.writeShort(r.nameLength);
            out.write(r.nameBytes, r.nameOffset, r.nameLength);
            byte[] message = bytes.toByteArray();
            tally.consume(n, message, message.length);
        });
    }
}
