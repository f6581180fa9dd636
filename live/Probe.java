// SPDX-License-Identifier: Apache-2.0
// One JVM that answers many `nodetool getendpoints` and `describering` questions: it
// connects once with Cassandra's own NodeProbe (what nodetool's GetEndpoints and
// DescribeRing commands call) and reads lines on standard input:
//   KEYSPACE<TAB>TABLE<TAB>KEY   -> "OK<TAB>addr<TAB>addr..." (replica order, as nodetool)
//   describering<TAB>KEYSPACE    -> "OK<TAB>line<TAB>line..." (describeRing's TokenRange lines)
// or "ERR<TAB>message".
// Usage: java -cp <cassandra jars> Probe.java HOST JMX_PORT
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.cassandra.tools.NodeProbe;

public class Probe {
    public static void main(String[] args) throws Exception {
        NodeProbe probe = new NodeProbe(args[0], Integer.parseInt(args[1]));
        PrintStream out = new PrintStream(System.out, true, "UTF-8");
        out.println("ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.split("\t", 3);
            if (f.length == 2 && f[0].equals("describering")) {
                try {
                    StringBuilder b = new StringBuilder("OK");
                    for (String r : probe.describeRing(f[1], false))
                        b.append('\t').append(r);
                    out.println(b);
                } catch (Exception e) {
                    out.println("ERR\t" + String.valueOf(e).replace('\n', ' ').replace('\t', ' '));
                }
                continue;
            }
            if (f.length != 3) {
                out.println("ERR\twant KEYSPACE<TAB>TABLE<TAB>KEY");
                continue;
            }
            try {
                List<InetAddress> eps = probe.getEndpoints(f[0], f[1], f[2]);
                StringBuilder b = new StringBuilder("OK");
                for (InetAddress a : eps)
                    b.append('\t').append(a.getHostAddress());
                out.println(b);
            } catch (Exception e) {
                out.println("ERR\t" + String.valueOf(e).replace('\n', ' ').replace('\t', ' '));
            }
        }
        probe.close();
    }
}
