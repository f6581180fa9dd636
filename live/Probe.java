// SPDX-License-Identifier: Apache-2.0
// One JVM that answers many `nodetool` questions: it connects once with Cassandra's own
// NodeProbe (what nodetool's GetEndpoints and DescribeRing commands call) and reads lines
// on standard input:
//   KEYSPACE<TAB>TABLE<TAB>KEY   -> "OK<TAB>addr<TAB>addr..." (replica order, as nodetool)
//   describering<TAB>KEYSPACE    -> "OK<TAB>line<TAB>line..." (describeRing's TokenRange lines)
//   nodetool<TAB>ARG<TAB>ARG...  -> "NT<TAB>status<TAB>stdout<TAB>stderr": Cassandra's own
//                                   NodeTool (the class `nodetool` runs) executed in this JVM
//                                   with those arguments (e.g. -h H -p P ring); stdout and
//                                   stderr escaped (\\ \n \t \r)
// or "ERR<TAB>message".
// Usage: java -cp <cassandra jars> Probe.java HOST JMX_PORT
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.Permission;
import java.util.Arrays;
import java.util.List;

import org.apache.cassandra.tools.NodeProbe;
import org.apache.cassandra.tools.INodeProbeFactory;
import org.apache.cassandra.tools.NodeTool;
import org.apache.cassandra.tools.Output;

public class Probe {
    /** NodeTool calls System.exit when it cannot connect: that must not end this JVM. */
    static final class ExitRefused extends SecurityException {
        final int status;
        ExitRefused(int status) { super("nodetool exited with status " + status); this.status = status; }
    }

    static volatile boolean refuseExit = false;

    /** The output of the NodeTool call under way: the probes FACTORY creates print to it. */
    static volatile Output current = null;

    /** What nodetool's own (package-private) NodeProbeFactory does, and hands each probe the
     *  call's output: 6.0's picocli NodeTool prints through probe.output() and no longer
     *  gives its stream to the NodeProbe it creates (setOutput exists in 4.0-5.0 too). */
    static final INodeProbeFactory FACTORY = new INodeProbeFactory() {
        public NodeProbe create(String host, int port) throws java.io.IOException {
            return withOutput(new NodeProbe(host, port));
        }
        public NodeProbe create(String host, int port, String user, String password) throws java.io.IOException {
            return withOutput(new NodeProbe(host, port, user, password));
        }
    };

    static NodeProbe withOutput(NodeProbe p) {
        Output o = current;
        if (o != null)
            p.setOutput(o);
        return p;
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\t': b.append("\\t"); break;
                case '\r': b.append("\\r"); break;
                default: b.append(c);
            }
        }
        return b.toString();
    }

    static String nodetool(String[] args) throws Exception {
        ByteArrayOutputStream ob = new ByteArrayOutputStream(), eb = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(ob, true, "UTF-8"), e = new PrintStream(eb, true, "UTF-8");
        PrintStream sysOut = System.out, sysErr = System.err;
        int status;
        System.setOut(o);       // a command that prints to System.out directly
        System.setErr(e);
        refuseExit = true;
        try {
            Output output = new Output(o, e);
            current = output;
            status = new NodeTool(FACTORY, output).execute(args);
        } catch (ExitRefused x) {
            status = x.status;
        } finally {
            refuseExit = false;
            current = null;
            System.setOut(sysOut);
            System.setErr(sysErr);
        }
        o.flush();
        e.flush();
        return "NT\t" + status + "\t" + escape(ob.toString("UTF-8")) + "\t" + escape(eb.toString("UTF-8"));
    }

    @SuppressWarnings("removal")
    static void guardExit() {
        try {
            System.setSecurityManager(new SecurityManager() {
                @Override public void checkPermission(Permission p) {}
                @Override public void checkPermission(Permission p, Object ctx) {}
                @Override public void checkExit(int status) {
                    if (refuseExit)
                        throw new ExitRefused(status);
                }
            });
        } catch (UnsupportedOperationException | SecurityException ignored) {
            // a JDK without a security manager: a failed connect then ends this JVM, and
            // the harness reports it
        }
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, "UTF-8");
        guardExit();
        NodeProbe probe = new NodeProbe(args[0], Integer.parseInt(args[1]));
        out.println("ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.startsWith("nodetool\t")) {
                try {
                    String[] a = line.split("\t", -1);
                    out.println(nodetool(Arrays.copyOfRange(a, 1, a.length)));
                } catch (Throwable t) {
                    out.println("ERR\t" + String.valueOf(t).replace('\n', ' ').replace('\t', ' '));
                }
                continue;
            }
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
