// SPDX-License-Identifier: Apache-2.0
// Vector generator for libtokenring's Cassandra-exact token allocation on
// RandomPartitioner rings (tokenring_allocate_cassandra128()).
//
// AllocationVectors.java with RandomPartitioner: runs Apache Cassandra's own allocator
// (TokenAllocation.allocateTokens, the call a bootstrapping node makes) on generated rings
// of BigIntegerToken (0 .. 2^127) and prints, for every join, the ring it saw and the
// tokens Cassandra chose. Needs nothing but cassandra-all and its
// dependencies on the class path; no server, no network. See README.md beside this file.
//
// Output (tab-separated, '#' comments), as AllocationVectors.java with decimal 128-bit tokens:
//   seq    ID  description                        a new ring: forget every node
//   node   NAME DC RACK STATE TOKENS              STATE N (normal) or J (joining);
//                                                 tokens ascending, comma-separated
//   probe  NAME DC RACK NUM_TOKENS MODE FIRST RESULT   a join that is not kept
//   join   (same columns)                         a join that is kept on success
// MODE  rf:R            allocate_tokens_for_local_replication_factor: R
//       simple:R        allocate_tokens_for_keyspace, SimpleStrategy R
//       nts:DC=R,...    allocate_tokens_for_keyspace, NetworkTopologyStrategy
// FIRST the first token of Cassandra's answer in the order it was generated (the random
//       start of an empty ring), or '-' on error
// RESULT "ok TOKENS" (ascending) or "error CLASS MESSAGE"
import java.math.BigInteger;
import java.net.InetAddress;
import java.util.*;

import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.dht.RandomPartitioner;
import org.apache.cassandra.dht.Token;
import org.apache.cassandra.dht.tokenallocator.TokenAllocation;
import org.apache.cassandra.locator.*;

public class RandomAllocationVectors
{
    static final class Loc { final String dc, rack; Loc(String d, String r) { dc = d; rack = r; } }

    static final class Snitch extends SimpleSnitch
    {
        final Map<InetAddressAndPort, Loc> loc = new HashMap<>();
        @Override public String getRack(InetAddressAndPort ep) { return loc.get(ep).rack; }
        @Override public String getDatacenter(InetAddressAndPort ep) { return loc.get(ep).dc; }
    }

    static final class Node
    {
        final String name; final InetAddressAndPort ep; final String dc, rack; final boolean joining;
        final BigInteger[] tokens;
        Node(String name, InetAddressAndPort ep, String dc, String rack, boolean joining, BigInteger[] tokens)
        { this.name = name; this.ep = ep; this.dc = dc; this.rack = rack; this.joining = joining; this.tokens = tokens; }
    }

    final StringBuilder out = new StringBuilder();
    final Random rnd;
    List<Node> ring = new ArrayList<>();
    final Set<String> names = new HashSet<>();
    final Set<BigInteger> used = new HashSet<>();
    static final BigInteger MAX = BigInteger.ONE.shiftLeft(127);
    int vectors = 0, errors = 0;

    RandomAllocationVectors(long seed) { rnd = new Random(seed); }

    static InetAddressAndPort endpoint(String name) throws Exception
    {
        String host = name; int port = 7000;
        if (name.startsWith("["))
        {
            int e = name.indexOf(']');
            host = name.substring(1, e);
            if (e + 1 < name.length()) port = Integer.parseInt(name.substring(e + 2));
        }
        else if (name.indexOf(':') >= 0 && name.indexOf(':') == name.lastIndexOf(':'))
        {
            host = name.substring(0, name.indexOf(':'));
            port = Integer.parseInt(name.substring(name.indexOf(':') + 1));
        }
        return InetAddressAndPort.getByAddressOverrideDefaults(InetAddress.getByName(host), port);
    }

    static String joinTokens(BigInteger[] t)
    {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < t.length; i++) { if (i > 0) sb.append(','); sb.append(t[i]); }
        return sb.toString();
    }

    void seq(String id, String desc)
    {
        ring = new ArrayList<>(); names.clear(); used.clear();
        out.append("seq\t").append(id).append('\t').append(desc).append('\n');
    }

    void addNode(Node n) { addNode(n, true); }

    /** Adds a node to the ring; `print` false for a kept join (the join line says it all). */
    void addNode(Node n, boolean print)
    {
        ring.add(n); names.add(n.name);
        for (BigInteger t : n.tokens) used.add(t);
        if (print) out.append("node\t").append(n.name).append('\t').append(n.dc).append('\t').append(n.rack)
           .append('\t').append(n.joining ? "J" : "N").append('\t').append(joinTokens(n.tokens)).append('\n');
    }

    /** Runs Cassandra's allocation for a node joining the current ring; returns its tokens or null. */
    BigInteger[] allocate(String kind, String name, String dc, String rack, int numTokens, String mode) throws Exception
    {
        Snitch snitch = new Snitch();
        DatabaseDescriptor.setEndpointSnitch(snitch);
        TokenMetadata tm = new TokenMetadata(snitch).cloneWithNewPartitioner(RandomPartitioner.instance);
        for (Node n : ring)
        {
            snitch.loc.put(n.ep, new Loc(n.dc, n.rack));
            List<Token> ts = new ArrayList<>();
            for (BigInteger t : n.tokens) ts.add(new RandomPartitioner.BigIntegerToken(t));
            if (n.joining) tm.addBootstrapTokens(ts, n.ep); else tm.updateNormalTokens(ts, n.ep);
        }
        InetAddressAndPort ep = endpoint(name);
        snitch.loc.put(ep, new Loc(dc, rack));

        String result, first = "-";
        BigInteger[] got = null;
        try
        {
            AbstractReplicationStrategy rs;
            Map<String, String> opts = new HashMap<>();
            String[] m = mode.split(":", 2);
            if (m[0].equals("rf"))
            {
                opts.put(dc, m[1]);
                rs = new NetworkTopologyStrategy(null, tm, snitch, opts);
            }
            else if (m[0].equals("simple"))
            {
                opts.put("replication_factor", m[1]);
                rs = new SimpleStrategy("ks", tm, snitch, opts);
            }
            else
            {
                for (String kv : m[1].split(","))
                {
                    String[] p = kv.split("=");
                    opts.put(p[0], p[1]);
                }
                rs = new NetworkTopologyStrategy("ks", tm, snitch, opts);
            }
            Collection<Token> tokens = TokenAllocation.allocateTokens(tm, rs, ep, numTokens);
            got = new BigInteger[tokens.size()];
            int i = 0;
            for (Token t : tokens) got[i++] = (BigInteger) t.getTokenValue();
            first = got[0].toString();
            BigInteger[] sorted = got.clone();
            Arrays.sort(sorted);
            got = sorted;
            result = "ok " + joinTokens(sorted);
        }
        catch (Throwable e)
        {
            String msg = String.valueOf(e.getMessage()).replace('\t', ' ').replace('\n', ' ');
            result = "error " + e.getClass().getSimpleName() + " " + msg;
            errors++;
            got = null;
        }
        vectors++;
        out.append(kind).append('\t').append(name).append('\t').append(dc).append('\t').append(rack).append('\t')
           .append(numTokens).append('\t').append(mode).append('\t').append(first).append('\t').append(result).append('\n');
        if (got != null && kind.equals("join"))
            addNode(new Node(name, ep, dc, rack, false, got), false);
        return got;
    }

    // ------------------------------------------------------------------ generation

    int addrCounter = 0;
    int addrStyle = 0;   // 0 IPv4 default port, 1 IPv4 with ports, 2 IPv6, 3 random IPv4

    String newName()
    {
        while (true)
        {
            int k = ++addrCounter;
            String s;
            switch (addrStyle)
            {
                case 1: s = "10.0." + (k / 200) + "." + (k % 200 + 1) + ":" + (7000 + rnd.nextInt(50)); break;
                case 2: s = "fd00::" + Integer.toHexString(k) + (rnd.nextBoolean() ? "" : ":" + Integer.toHexString(rnd.nextInt(65536))); break;
                case 3: s = (1 + rnd.nextInt(223)) + "." + rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + (1 + rnd.nextInt(254)); break;
                default: s = "10." + (k / 60000) + "." + (k / 250 % 240) + "." + (k % 250 + 1); break;
            }
            if (addrStyle == 2 && s.indexOf(':', 6) >= 0 && s.chars().filter(c -> c == ':').count() > 2)
                s = "[" + s.substring(0, s.lastIndexOf(':')) + "]" + ":" + (7000 + rnd.nextInt(3));
            if (!names.contains(s)) return s;
        }
    }

    /** A token in 0 .. 2^127 not in use: uniform, or now and then an end of the range
     *  (0, 2^127, or next to them) where the wrapping arithmetic is at its limits. */
    BigInteger freshToken()
    {
        while (true)
        {
            BigInteger t;
            int k = rnd.nextInt(200);
            if (k == 0) t = BigInteger.ZERO;
            else if (k == 1) t = MAX;
            else if (k == 2) t = BigInteger.valueOf(rnd.nextInt(1000));
            else if (k == 3) t = MAX.subtract(BigInteger.valueOf(rnd.nextInt(1000)));
            else t = new BigInteger(128, rnd).mod(MAX.add(BigInteger.ONE));
            if (!used.contains(t)) return t;
        }
    }

    static int logUniformTokens(Random r, int max)
    {
        // 1 .. max, log-uniform (many small, some large)
        double e = r.nextDouble() * Math.log(max + 1);
        int v = (int) Math.floor(Math.exp(e));
        return Math.max(1, Math.min(max, v));
    }

    String rackName(int dcIdx, int r) { return (dcIdx % 2 == 0 ? "rack" : "RAC") + (r + 1); }
    String dcName(int d) { return d == 0 ? "dc1" : d == 1 ? "DC2" : "datacenter3"; }

    BigInteger[] randomTokens(int n)
    {
        BigInteger[] t = new BigInteger[n];
        for (int i = 0; i < n; i++) { t[i] = freshToken(); used.add(t[i]); }
        Arrays.sort(t);
        return t;
    }

    /** Evenly spaced layout: node j of n gets floor((v * n + j) * 2^127 / (T * n)). */
    BigInteger[] evenTokens(int j, int n, int T)
    {
        BigInteger[] t = new BigInteger[T];
        for (int v = 0; v < T; v++)
            t[v] = BigInteger.valueOf((long) v * n + j).multiply(MAX).divide(BigInteger.valueOf((long) T * n));
        Arrays.sort(t);
        return t;
    }

    String randomMode(String dc, List<String> dcs)
    {
        int k = rnd.nextInt(10);
        if (k < 6) return "rf:" + (1 + rnd.nextInt(5));
        if (k < 8) return "simple:" + (1 + rnd.nextInt(5));
        StringBuilder sb = new StringBuilder("nts:");
        boolean any = false;
        for (String d : dcs)
        {
            if (d.equals(dc) ? rnd.nextInt(10) < 9 : rnd.nextBoolean())
            {
                if (any) sb.append(',');
                sb.append(d).append('=').append(1 + rnd.nextInt(5));
                any = true;
            }
        }
        if (!any) sb.append(dc).append('=').append(1 + rnd.nextInt(5));
        return sb.toString();
    }

    void randomRing(int id) throws Exception
    {
        addrStyle = rnd.nextInt(10) < 6 ? 0 : rnd.nextInt(3) + 1;
        int ndc = 1 + rnd.nextInt(3);
        int total = 1 + rnd.nextInt(60);
        boolean even = rnd.nextInt(5) == 0;
        boolean hetero = !even && rnd.nextInt(8) == 0;
        List<String> dcs = new ArrayList<>();
        for (int d = 0; d < ndc; d++) dcs.add(dcName(d));
        int[] T = new int[ndc]; int[] R = new int[ndc];
        int budget = 600;
        for (int d = 0; d < ndc; d++)
        {
            R[d] = 1 + rnd.nextInt(5);
            T[d] = logUniformTokens(rnd, 256);
        }
        seq("random-" + id, "random ring: " + total + " nodes, " + ndc + " dc(s), " + (even ? "evenly spaced" : "random") + " tokens" + (hetero ? ", mixed num_tokens" : ""));
        // assign nodes to dcs/racks
        int[] perDc = new int[ndc];
        for (int i = 0; i < total; i++) perDc[i < ndc ? i : rnd.nextInt(ndc)]++;
        for (int d = 0; d < ndc; d++)
        {
            while ((long) perDc[d] * T[d] > budget / ndc && T[d] > 1) T[d] = Math.max(1, T[d] / 2);
            boolean roundRobin = rnd.nextBoolean();
            for (int i = 0; i < perDc[d]; i++)
            {
                int r = roundRobin ? i % R[d] : rnd.nextInt(R[d]);
                int t = hetero ? Math.max(1, T[d] / 2 + rnd.nextInt(T[d] + 1)) : T[d];
                BigInteger[] tokens;
                if (even)
                {
                    tokens = evenTokens(i, perDc[d], t);
                    // other dcs: shift by a small offset so that dcs do not collide
                    for (int v = 0; v < tokens.length; v++) tokens[v] = tokens[v].add(BigInteger.valueOf(d));
                    boolean clash = false;
                    for (BigInteger x : tokens) clash |= used.contains(x);
                    if (clash) tokens = randomTokens(t); else for (BigInteger x : tokens) used.add(x);
                }
                else tokens = randomTokens(t);
                boolean joining = perDc[d] > 2 && rnd.nextInt(40) == 0;
                String name = newName();
                addNode(new Node(name, endpoint(name), dcs.get(d), rackName(d, r), joining, tokens));
            }
        }
        // probes
        int probes = 3 + rnd.nextInt(3);
        BigInteger[] lastOk = null; String[] lastCfg = null;
        for (int p = 0; p < probes; p++)
        {
            String dc; int d;
            if (rnd.nextInt(6) == 0 && ndc < 3) { d = ndc; dc = dcName(ndc); }
            else { d = rnd.nextInt(ndc); dc = dcs.get(d); }
            String rack;
            if (d < ndc && rnd.nextInt(10) < 7) rack = rackName(d, rnd.nextInt(R[d]));
            else rack = rackName(d, R.length > d ? R[d] + rnd.nextInt(2) : rnd.nextInt(3));
            int nt = rnd.nextInt(5) == 0 ? logUniformTokens(rnd, 256) : (d < ndc ? T[d] : 16);
            List<String> all = new ArrayList<>(dcs);
            if (!all.contains(dc)) all.add(dc);
            String mode = randomMode(dc, all);
            String name = newName();
            BigInteger[] res = allocate("probe", name, dc, rack, nt, mode);
            if (res != null) { lastOk = res; lastCfg = new String[]{ dc, rack, Integer.toString(nt), mode }; }
        }
        // a cross-datacenter clash: another datacenter takes the token Cassandra just chose
        if (lastOk != null && rnd.nextInt(4) == 0)
        {
            String otherDc = lastCfg[0].equals("dc1") ? "DC2" : "dc1";
            BigInteger c = lastOk[rnd.nextInt(lastOk.length)];
            BigInteger c1 = c.add(BigInteger.ONE);
            if (!used.contains(c) && !used.contains(c1))
            {
                String name = newName();
                BigInteger[] toks = c1.compareTo(MAX) <= 0 ? new BigInteger[]{ c, c1 } : new BigInteger[]{ c };
                addNode(new Node(name, endpoint(name), otherDc, "rack1", false, toks));
                allocate("probe", newName(), lastCfg[0], lastCfg[1], Integer.parseInt(lastCfg[2]), lastCfg[3]);
            }
        }
        // grow it by a few joins
        if (lastCfg != null)
        {
            int joins = 1 + rnd.nextInt(3);
            for (int j = 0; j < joins; j++)
                allocate("join", newName(), lastCfg[0], lastCfg[1], Integer.parseInt(lastCfg[2]), lastCfg[3]);
        }
    }

    /** A datacenter (or cluster) grown node by node from empty by Cassandra itself. */
    void built(String id, int nodes, int[] racksPerDc, int tokens, String modeKind, int rf, boolean blocks) throws Exception
    {
        addrStyle = 0;
        int ndc = racksPerDc.length;
        seq(id, "built by Cassandra node by node: " + nodes + " nodes, racks " + Arrays.toString(racksPerDc) + ", " + tokens + " tokens, " + modeKind + " " + rf + (blocks ? ", racks filled one after another" : ""));
        int[] count = new int[ndc];
        for (int i = 0; i < nodes; i++)
        {
            int d = i % ndc;
            int k = count[d]++;
            int perRack = Math.max(1, nodes / ndc / racksPerDc[d]);
            int r = blocks ? Math.min(racksPerDc[d] - 1, k / perRack) : k % racksPerDc[d];
            String dc = dcName(d);
            String mode;
            if (modeKind.equals("rf")) mode = "rf:" + rf;
            else if (modeKind.equals("simple")) mode = "simple:" + rf;
            else
            {
                StringBuilder sb = new StringBuilder("nts:");
                for (int e = 0; e < ndc; e++) { if (e > 0) sb.append(','); sb.append(dcName(e)).append('=').append(Math.max(1, rf - e)); }
                mode = sb.toString();
            }
            allocate("join", newName(), dc, rackName(d, r), tokens, mode);
        }
    }

    public static void main(String[] args) throws Exception
    {
        long seed = Long.parseLong(args[0]);
        int randomRings = Integer.parseInt(args[1]);
        DatabaseDescriptor.clientInitialization();
        RandomAllocationVectors g = new RandomAllocationVectors(seed);
        g.out.append("# Cassandra token allocation vectors, RandomPartitioner, generator seed ").append(seed)
             .append(", Cassandra ").append(org.apache.cassandra.utils.FBUtilities.getReleaseVersionString())
             .append(", Java ").append(System.getProperty("java.version")).append('\n');
        g.out.append("# generator tests/data/gen/allocation/RandomAllocationVectors.java, command: java -ea ")
             .append("--add-opens java.base/java.math=ALL-UNNAMED RandomAllocationVectors ")
             .append(String.join(" ", args)).append(" (jar cassandra-all ")
             .append(org.apache.cassandra.utils.FBUtilities.getReleaseVersionString())
             .append("; see the README there)\n");
        // rings Cassandra's allocator built itself, node by node
        g.built("built-1rack-rf3-t16", 20, new int[]{ 1 }, 16, "rf", 3, false);
        g.built("built-3racks-rf3-t16", 20, new int[]{ 3 }, 16, "rf", 3, false);
        g.built("built-5racks-rf3-t8", 20, new int[]{ 5 }, 8, "rf", 3, false);
        g.built("built-1rack-rf1-t16", 15, new int[]{ 1 }, 16, "rf", 1, false);
        g.built("built-2dc-rf3-t16", 20, new int[]{ 3, 1 }, 16, "rf", 3, false);
        g.built("built-1rack-rf2-t64", 6, new int[]{ 1 }, 64, "rf", 2, false);
        g.built("built-3racks-rf3-t1", 20, new int[]{ 3 }, 1, "rf", 3, false);
        g.built("built-simple-rf3-t8", 15, new int[]{ 2, 1 }, 8, "simple", 3, false);
        g.built("built-3dc-nts-t16", 18, new int[]{ 3, 2, 4 }, 16, "nts", 3, false);
        g.built("built-1rack-rf1-t1", 20, new int[]{ 1 }, 1, "rf", 1, false);
        for (int i = 0; i < randomRings; i++)
            g.randomRing(i);
        g.out.append("# vectors ").append(g.vectors).append(", of which errors ").append(g.errors).append('\n');
        try (java.io.Writer w = new java.io.OutputStreamWriter(new java.io.FileOutputStream(args[2]), java.nio.charset.StandardCharsets.UTF_8))
        {
            w.write(g.out.toString());
        }
    }
}
