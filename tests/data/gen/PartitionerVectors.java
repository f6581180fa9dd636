// SPDX-License-Identifier: Apache-2.0
// Writes golden vectors for RandomPartitioner and ByteOrderedPartitioner by running
// Cassandra's own classes (cassandra-all 5.0.2). See README.md in this folder for the
// exact commands. Output (stdout), tab-separated, one key per line:
//   key_hex <TAB> RandomPartitioner token (TokenFactory.toString) <TAB> ByteOrderedPartitioner token (TokenFactory.toString)
// A '#' comment line, then the header line, then the rows.
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.cassandra.dht.ByteOrderedPartitioner;
import org.apache.cassandra.dht.RandomPartitioner;
import org.apache.cassandra.dht.Token;

public final class PartitionerVectors
{
    private static String hex(byte[] b)
    {
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b)
            sb.append(String.format("%02x", x & 0xff));
        return sb.toString();
    }

    private static byte[] fill(int len, int value)
    {
        byte[] b = new byte[len];
        java.util.Arrays.fill(b, (byte) value);
        return b;
    }

    public static void main(String[] args)
    {
        List<byte[]> keys = new ArrayList<>();
        // Edge cases: the empty key (the MIN token), single bytes, MD5 block boundaries.
        keys.add(new byte[0]);
        for (int v = 0; v < 256; v++)
            keys.add(new byte[] { (byte) v });
        int[] lens = { 2, 3, 15, 16, 17, 31, 32, 33, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4096 };
        for (int len : lens)
        {
            keys.add(fill(len, 0x00));
            keys.add(fill(len, 0xff));
            keys.add(fill(len, 0x80));
            keys.add(fill(len, 0x61));
        }
        String[] texts = { "a", "abc", "message digest", "abcdefghijklmnopqrstuvwxyz",
                           "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
                           "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
                           "key", "alice", "bob", "charlie", "test", "cassandra", "\u00e9t\u00e9", "\u65e5\u672c" };
        for (String t : texts)
            keys.add(t.getBytes(StandardCharsets.UTF_8));
        Random r = new Random(20261202L);
        // Random bytes: 40 keys of every length 1..100.
        for (int len = 1; len <= 100; len++)
            for (int i = 0; i < 40; i++)
            {
                byte[] b = new byte[len];
                r.nextBytes(b);
                keys.add(b);
            }
        // Text: ASCII words and numbers of lengths 1..100.
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-:.";
        for (int i = 0; i < 1000; i++)
        {
            int len = 1 + r.nextInt(100);
            StringBuilder sb = new StringBuilder();
            for (int j = 0; j < len; j++)
                sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
            keys.add(sb.toString().getBytes(StandardCharsets.UTF_8));
        }
        for (int i = 0; i < 200; i++)
            keys.add(Long.toString(r.nextLong()).getBytes(StandardCharsets.UTF_8));

        Token.TokenFactory rf = RandomPartitioner.instance.getTokenFactory();
        Token.TokenFactory bf = ByteOrderedPartitioner.instance.getTokenFactory();
        StringBuilder out = new StringBuilder();
        out.append("# made by tests/data/gen/PartitionerVectors.java running org.apache.cassandra.dht.RandomPartitioner and ByteOrderedPartitioner of cassandra-all 5.0.2\n");
        out.append("key_hex\trandom_token\tbyte_ordered_token\n");
        for (byte[] k : keys)
        {
            Token rt = RandomPartitioner.instance.getToken(ByteBuffer.wrap(k));
            Token bt = ByteOrderedPartitioner.instance.getToken(ByteBuffer.wrap(k));
            // The text forms must read back as the same tokens.
            if (!rf.fromString(rf.toString(rt)).equals(rt) || !bf.fromString(bf.toString(bt)).equals(bt))
                throw new AssertionError("round trip failed for " + hex(k));
            out.append(hex(k)).append('\t').append(rf.toString(rt)).append('\t').append(bf.toString(bt)).append('\n');
        }
        System.out.print(out);
    }
}
