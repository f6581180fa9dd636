// SPDX-License-Identifier: Apache-2.0
// Times Cassandra's own allocator (TokenAllocation.allocateTokens, the call a bootstrapping
// node makes) for one node joining a ring written by bench_join, with
// allocate_tokens_for_local_replication_factor: 3; run by compare.sh.
//
// Usage: JoinBench RING.tsv REPEATS [random]
// Prints: median and best wall seconds of REPEATS timed joins (after as many warm-up
// joins, so that the JIT has compiled the allocator), and the tokens chosen. With
// "random", the same ring in RandomPartitioner tokens as bench_join's mode exact128
// writes it: Murmur3 token t as (t + 2^63) * 2^63.
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.*;
import java.util.*;

import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.dht.Murmur3Partitioner;
import org.apache.cassandra.dht.RandomPartitioner;
import org.apache.cassandra.dht.Token;
import org.apache.cassandra.dht.tokenallocator.TokenAllocation;
import org.apache.cassandra.locator.*;

public class JoinBench
{
    static final class Snitch extends SimpleSnitch
    {
        final Map<InetAddressAndPort, String> rack = new HashMap<>();
        @Override public String getRack(InetAddressAndPort ep) { return rack.get(ep); }
        @Override public String getDatacenter(InetAddressAndPort ep) { return "dc1"; }
    }

    public static void main(String[] args) throws Exception
    {
        int repeats = Integer.parseInt(args[1]);
        boolean random = args.length > 2 && args[2].equals("random");
        BigInteger half = BigInteger.ONE.shiftLeft(63);
        DatabaseDescriptor.clientInitialization();
        Snitch snitch = new Snitch();
        DatabaseDescriptor.setEndpointSnitch(snitch);
        TokenMetadata tm = new TokenMetadata(snitch).cloneWithNewPartitioner(random ? RandomPartitioner.instance : Murmur3Partitioner.instance);
        for (String line : Files.readAllLines(Paths.get(args[0])))
        {
            if (!line.startsWith("node\t"))
                continue;
            String[] f = line.split("\t");
            InetAddressAndPort ep = InetAddressAndPort.getByAddressOverrideDefaults(InetAddress.getByName(f[1]), 7000);
            snitch.rack.put(ep, f[3]);
            List<Token> ts = new ArrayList<>();
            for (String t : f[5].split(","))
                ts.add(random ? new RandomPartitioner.BigIntegerToken(new BigInteger(t).add(half).shiftLeft(63))
                              : new Murmur3Partitioner.LongToken(Long.parseLong(t)));
            tm.updateNormalTokens(ts, ep);
        }
        InetAddressAndPort joining = InetAddressAndPort.getByAddressOverrideDefaults(InetAddress.getByName("10.0.9.1"), 7000);
        snitch.rack.put(joining, "rack1");
        Map<String, String> opts = new HashMap<>();
        opts.put("dc1", "3");
        AbstractReplicationStrategy rs = new NetworkTopologyStrategy(null, tm, snitch, opts);
        double[] times = new double[repeats];
        Collection<Token> tokens = null;
        for (int r = 0; r < 2 * repeats; r++)
        {
            long t0 = System.nanoTime();
            tokens = TokenAllocation.allocateTokens(tm, rs, joining, 16);
            long t1 = System.nanoTime();
            if (r >= repeats)
                times[r - repeats] = (t1 - t0) * 1e-9;
        }
        Arrays.sort(times);
        List<Token> sorted = new ArrayList<>(tokens);
        Collections.sort(sorted);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < sorted.size(); i++)
            sb.append(i > 0 ? "," : "").append(sorted.get(i).getTokenValue());
        System.out.printf(Locale.ROOT, "%.6f\t%.6f\t%s%n", times[repeats / 2], times[0], sb);
    }
}
