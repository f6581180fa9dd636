// SPDX-License-Identifier: Apache-2.0
// Vector generator for libtokenring's RandomPartitioner and ByteOrderedPartitioner rings.
//
// Written for this project (not copied from Cassandra). Builds Cassandra's own
// TokenMetadata on rings of RandomPartitioner and ByteOrderedPartitioner tokens (through
// cloneWithNewPartitioner, as Cassandra's tools do), runs its SimpleStrategy and
// NetworkTopologyStrategy (calculateNaturalReplicas) for keys and tokens, and for
// RandomPartitioner the ownership floats: RandomPartitioner.describeOwnership summed per
// node in token order (StorageService.getOwnership) and over each node's replica ranges
// from getAddressReplicas (StorageService.getEffectiveOwnership's loop). No server, no
// network: DatabaseDescriptor.clientInitialization() and a snitch that knows every node.
//
// Output (tab-separated, '#' comments):
//   ring  ID  PARTITIONER            random | byteordered; a new ring
//   node  NAME DC RACK TOKENS        tokens in TokenFactory.toString form, comma-separated
//   repl  STRATEGY OPTIONS           SimpleStrategy RF | NetworkTopologyStrategy dc=rf,...
//   key   KEY_HEX TOKEN RANGE_END REPLICAS   the key's token (getToken), its range's end
//                                    token (TokenMetadata.firstToken), the replicas
//                                    (calculateNaturalReplicas, in Cassandra's order)
//   tok   TOKEN RANGE_END REPLICAS   the same for a token given directly
//   own   NODE PRIMARY_BITS EFFECTIVE_BITS   the two floats' IEEE bits (RandomPartitioner)
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.*;

import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.dht.*;
import org.apache.cassandra.locator.*;
import org.apache.cassandra.utils.Hex;

public class PartitionedRingVectors
{
    static final class Loc { final String dc, rack; Loc(String d, String r) { dc = d; rack = r; } }

    static final class Snitch extends SimpleSnitch
    {
        final Map<InetAddressAndPort, Loc> loc = new HashMap<>();
        @Override public String getRack(InetAddressAndPort ep) { return loc.get(ep).rack; }
        @Override public String getDatacenter(InetAddressAndPort ep) { return loc.get(ep).dc; }
    }

    static final BigInteger R = BigInteger.ONE.shiftLeft(127);
    final StringBuilder out = new StringBuilder();
    final Random rnd;

    PartitionedRingVectors(long seed) { rnd = new Random(seed); }

    static String hex(byte[] b) { return Hex.bytesToHex(b); }

    byte[] randomBytes(int min, int max)
    {
        byte[] b = new byte[min + rnd.nextInt(max - min + 1)];
        rnd.nextBytes(b);
        return b;
    }

    String names(EndpointsForRange eps, Map<InetAddressAndPort, String> name)
    {
        StringBuilder sb = new StringBuilder();
        for (Replica r : eps) { if (sb.length() > 0) sb.append(','); sb.append(name.get(r.endpoint())); if (r.isTransient()) sb.append('~'); }
        return sb.toString();
    }

    /** One ring: nodes (name, dc, rack, tokens), then every replication with keys and tokens. */
    void ring(String id, IPartitioner p, List<String[]> nodes, List<List<Token>> tokens, List<String> repls) throws Exception
    {
        boolean random = p instanceof RandomPartitioner;
        Token.TokenFactory tf = p.getTokenFactory();
        out.append("ring\t").append(id).append('\t').append(random ? "random" : "byteordered").append('\n');
        Snitch snitch = new Snitch();
        DatabaseDescriptor.setEndpointSnitch(snitch);
        TokenMetadata tm = new TokenMetadata(snitch).cloneWithNewPartitioner(p);
        Map<InetAddressAndPort, String> name = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++)
        {
            String[] n = nodes.get(i);
            InetAddressAndPort ep = InetAddressAndPort.getByAddressOverrideDefaults(InetAddress.getByName(n[0]), 7000);
            snitch.loc.put(ep, new Loc(n[1], n[2]));
            name.put(ep, n[0]);
            StringBuilder ts = new StringBuilder();
            for (Token t : tokens.get(i)) { if (ts.length() > 0) ts.append(','); ts.append(tf.toString(t)); }
            out.append("node\t").append(n[0]).append('\t').append(n[1]).append('\t').append(n[2]).append('\t').append(ts).append('\n');
            tm.updateNormalTokens(tokens.get(i), ep);
        }
        ArrayList<Token> sorted = tm.sortedTokens();
        // probe tokens: every ring token, its neighbours, random ones
        List<Token> probes = new ArrayList<>();
        for (Token t : sorted)
        {
            probes.add(t);
            if (random)
            {
                BigInteger v = ((RandomPartitioner.BigIntegerToken) t).getTokenValue();
                if (v.signum() > 0) probes.add(new RandomPartitioner.BigIntegerToken(v.subtract(BigInteger.ONE)));
                if (v.compareTo(R) < 0) probes.add(new RandomPartitioner.BigIntegerToken(v.add(BigInteger.ONE)));
            }
            else
            {
                byte[] b = (byte[]) t.getTokenValue();
                byte[] longer = Arrays.copyOf(b, b.length + 1);
                probes.add(new ByteOrderedPartitioner.BytesToken(longer));
                if (b.length > 1) probes.add(new ByteOrderedPartitioner.BytesToken(Arrays.copyOf(b, b.length - 1)));
            }
        }
        probes.add(p.getMinimumToken());
        if (random) probes.add(new RandomPartitioner.BigIntegerToken(R));
        for (int i = 0; i < 20; i++) probes.add(p.getRandomToken(rnd));
        for (String repl : repls)
        {
            String[] r = repl.split(" ", 2);
            Map<String, String> opts = new HashMap<>();
            AbstractReplicationStrategy rs;
            if (r[0].equals("SimpleStrategy"))
            {
                opts.put("replication_factor", r[1]);
                rs = new SimpleStrategy("ks", tm, snitch, opts);
            }
            else
            {
                for (String kv : r[1].split(",")) { String[] q = kv.split("="); opts.put(q[0], q[1]); }
                rs = new NetworkTopologyStrategy("ks", tm, snitch, opts);
            }
            out.append("repl\t").append(r[0]).append('\t').append(r[1]).append('\n');
            for (int k = 0; k < 120; k++)
            {
                byte[] key = k == 0 ? new byte[0] : randomBytes(1, 24);
                if (!random && k % 3 == 0 && k > 0)
                {
                    // keys around ring tokens: the token itself, with a byte more, cut short
                    byte[] b = (byte[]) sorted.get(rnd.nextInt(sorted.size())).getTokenValue();
                    key = k % 2 == 0 ? b : Arrays.copyOf(b, Math.max(0, b.length - 1 + rnd.nextInt(3)));
                }
                Token t = p.getToken(ByteBuffer.wrap(key));
                Token end = TokenMetadata.firstToken(sorted, t);
                out.append("key\t").append(hex(key)).append('\t').append(tf.toString(t)).append('\t')
                   .append(tf.toString(end)).append('\t').append(names(rs.calculateNaturalReplicas(t, tm), name)).append('\n');
            }
            for (Token t : probes)
            {
                Token end = TokenMetadata.firstToken(sorted, t);
                out.append("tok\t").append(tf.toString(t)).append('\t').append(tf.toString(end)).append('\t')
                   .append(names(rs.calculateNaturalReplicas(t, tm), name)).append('\n');
            }
            if (random)
            {
                Map<Token, Float> own = new TreeMap<>(p.describeOwnership(sorted));
                Map<String, Float> primary = new LinkedHashMap<>();
                for (Map.Entry<Token, Float> e : own.entrySet())
                {
                    String n = name.get(tm.getEndpoint(e.getKey()));
                    primary.put(n, primary.containsKey(n) ? primary.get(n) + e.getValue() : e.getValue());
                }
                RangesByEndpoint byEp = rs.getAddressReplicas(tm);
                for (String[] n : nodes)
                {
                    InetAddressAndPort ep = InetAddressAndPort.getByAddressOverrideDefaults(InetAddress.getByName(n[0]), 7000);
                    float eff = 0.0f;
                    for (Replica rep : byEp.get(ep))
                        if (own.containsKey(rep.range().right))
                            eff += own.get(rep.range().right);
                    Float pr = primary.get(n[0]);
                    out.append("own\t").append(n[0]).append('\t')
                       .append(String.format("%08x", Float.floatToIntBits(pr == null ? 0.0f : pr))).append('\t')
                       .append(String.format("%08x", Float.floatToIntBits(eff))).append('\n');
                }
            }
        }
    }

    Token randomToken128(int shape, int i, int n)
    {
        if (shape == 1) return new RandomPartitioner.BigIntegerToken(R.multiply(BigInteger.valueOf(i)).divide(BigInteger.valueOf(n)));
        if (shape == 2) return new RandomPartitioner.BigIntegerToken(BigInteger.valueOf(rnd.nextInt(1 << 20)));
        return new RandomPartitioner.BigIntegerToken(new BigInteger(127, rnd));
    }

    Token randomBytesToken(int shape)
    {
        byte[] b = randomBytes(1, 10);
        if (shape == 1) for (int i = 0; i < b.length && i < 9; i++) if (i < 7) b[i] = 0x41;
        if (shape == 2) for (int i = 0; i < b.length; i++) b[i] = rnd.nextBoolean() ? 0 : (byte) 0xff;
        return new ByteOrderedPartitioner.BytesToken(b);
    }

    void randomRing(String id, boolean random, int shape) throws Exception
    {
        IPartitioner p = random ? RandomPartitioner.instance : ByteOrderedPartitioner.instance;
        int dcs = 1 + rnd.nextInt(2), racks = 1 + rnd.nextInt(3);
        int n = dcs * (1 + rnd.nextInt(6)), vn = 1 + rnd.nextInt(12);
        List<String[]> nodes = new ArrayList<>();
        List<List<Token>> tokens = new ArrayList<>();
        Set<Token> used = new HashSet<>();
        int total = n * vn, at = 0;
        for (int i = 0; i < n; i++)
        {
            nodes.add(new String[] { "10.0." + (i / 200) + "." + (1 + i % 200), "dc" + (1 + i % dcs), "r" + (1 + (i / dcs) % racks) });
            List<Token> ts = new ArrayList<>();
            while (ts.size() < vn)
            {
                Token t = random ? randomToken128(shape, at++, total) : randomBytesToken(shape);
                if (used.add(t)) ts.add(t);
            }
            if (random && shape == 0 && i == 0 && id.endsWith("edge")) { ts.set(0, new RandomPartitioner.BigIntegerToken(BigInteger.ZERO)); ts.add(new RandomPartitioner.BigIntegerToken(R)); }
            tokens.add(ts);
        }
        List<String> repls = new ArrayList<>();
        repls.add("SimpleStrategy 1");
        repls.add("SimpleStrategy " + (2 + rnd.nextInt(2)));
        StringBuilder nts = new StringBuilder();
        for (int d = 1; d <= dcs; d++) { if (d > 1) nts.append(','); nts.append("dc").append(d).append('=').append(1 + rnd.nextInt(3)); }
        repls.add("NetworkTopologyStrategy " + nts);
        ring(id, p, nodes, tokens, repls);
    }

    public static void main(String[] args) throws Exception
    {
        DatabaseDescriptor.clientInitialization();
        PartitionedRingVectors g = new PartitionedRingVectors(20261202L);
        g.out.append("# Cassandra 5.0.2 TokenMetadata, SimpleStrategy, NetworkTopologyStrategy and RandomPartitioner.describeOwnership\n");
        g.out.append("# on RandomPartitioner and ByteOrderedPartitioner rings (tests/data/gen/rings/PartitionedRingVectors.java)\n");
        // a single-token ring of each
        List<String[]> one = new ArrayList<>();
        one.add(new String[] { "10.1.0.1", "dc1", "r1" });
        g.ring("rp-single", RandomPartitioner.instance, one, List.of(List.of(new RandomPartitioner.BigIntegerToken(new BigInteger("85070591730234615865843651857942052864")))), List.of("SimpleStrategy 1", "SimpleStrategy 3"));
        g.ring("bop-single", ByteOrderedPartitioner.instance, one, List.of(List.of(new ByteOrderedPartitioner.BytesToken(new byte[] { 0x6d }))), List.of("SimpleStrategy 1"));
        g.randomRing("rp-edge", true, 0);
        for (int i = 0; i < 12; i++) g.randomRing("rp-" + i, true, i % 3);
        for (int i = 0; i < 12; i++) g.randomRing("bop-" + i, false, i % 3);
        System.out.print(g.out);
    }
}
