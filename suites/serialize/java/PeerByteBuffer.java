// Peer: java.nio.ByteBuffer (heap, big-endian by default: Cerealed's exact bytes), one buffer reused for every op, put per field.
import java.nio.ByteBuffer;

public final class PeerByteBuffer {
    public static void main(String[] args) {
        Job job = Job.parse("PeerByteBuffer", args);
        ByteBuffer out = ByteBuffer.allocate(38 + 65535);
        job.timeSer((r, n, tally) -> {
            out.clear();
            out.putInt(r.id).put((byte) r.kind).putShort(r.delta).putLong(r.stamp).put((byte) (r.active ? 1 : 0))
                    .putFloat(r.ratio).putDouble(r.value);
            for (short d : r.dims) {
                out.putShort(d);
            }
            out.putShort((short) r.nameLength).put(r.nameBytes, r.nameOffset, r.nameLength);
            tally.consume(n, out.array(), out.position());
        });
    }
}
