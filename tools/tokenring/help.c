/* SPDX-License-Identifier: Apache-2.0 */
/* --help and the man page, both generated from the command table (commands.c). */
#include <stdio.h>
#include <stdlib.h>

#include "tool.h"

void print_help(void)
{
    strbuf b = { 0 };
    sb_printf(&b, "Usage: tokenring [OPTIONS] COMMAND [ARGS]\n\n%s\n\nCommands:\n",
              tool_description);
    for (size_t i = 0; i < tool_command_count; i++) {
        char head[80];
        snprintf(head, sizeof head, "%s %s", tool_commands[i].name, tool_commands[i].args);
        sb_printf(&b, "  %-28s %s\n", head, tool_commands[i].summary);
        sb_printf(&b, "      %s\n      example: %s\n", tool_commands[i].details,
                  tool_commands[i].example);
    }
    sb_puts(&b, "\nOptions:\n");
    for (size_t i = 0; i < tool_option_count; i++) {
        char head[80];
        snprintf(head, sizeof head, "%s%s%s", tool_options[i].flag, tool_options[i].arg ? " " : "",
                 tool_options[i].arg ? tool_options[i].arg : "");
        sb_printf(&b, "  %-28s %s\n", head, tool_options[i].help);
    }
    sb_printf(&b, "\nExit status: %s\n", tool_exit_text);
    fputs(b.p, stdout);
    free(b.p);
}

static void roff(strbuf *b, const char *s)
{
    if (*s == '.' || *s == '\'')
        sb_puts(b, "\\&");
    for (; *s; s++) {
        if (*s == '\\')
            sb_puts(b, "\\e");
        else if (*s == '-')
            sb_puts(b, "\\-");
        else
            sb_put(b, s, 1);
    }
}

void print_man(void)
{
    strbuf b = { 0 };
    sb_printf(&b, ".TH TOKENRING 1 \"\" \"libtokenring %s\" \"User Commands\"\n",
              tokenring_version_string());
    sb_puts(&b, ".SH NAME\ntokenring \\- nodetool\\-style answers about a Cassandra token "
                "ring\n.SH SYNOPSIS\n.B tokenring\n[\\fIOPTIONS\\fR] \\fICOMMAND\\fR "
                "[\\fIARGS\\fR]\n.SH DESCRIPTION\n");
    roff(&b, tool_description);
    sb_puts(&b, "\n.SH COMMANDS\n");
    for (size_t i = 0; i < tool_command_count; i++) {
        sb_printf(&b, ".TP\n.B %s", tool_commands[i].name);
        if (*tool_commands[i].args) {
            sb_puts(&b, " \\fR");
            roff(&b, tool_commands[i].args);
        }
        sb_puts(&b, "\n");
        roff(&b, tool_commands[i].summary);
        sb_puts(&b, ". ");
        roff(&b, tool_commands[i].details);
        sb_puts(&b, "\n.RS\n.PP\nExample:\n.nf\n");
        roff(&b, tool_commands[i].example);
        sb_puts(&b, "\n.fi\n.RE\n");
    }
    sb_puts(&b, ".SH OPTIONS\n");
    for (size_t i = 0; i < tool_option_count; i++) {
        sb_puts(&b, ".TP\n.B ");
        roff(&b, tool_options[i].flag);
        if (tool_options[i].arg) {
            sb_puts(&b, " \\fI");
            roff(&b, tool_options[i].arg);
            sb_puts(&b, "\\fR");
        }
        sb_puts(&b, "\n");
        roff(&b, tool_options[i].help);
        sb_puts(&b, "\n");
    }
    sb_puts(&b, ".SH EXIT STATUS\n");
    roff(&b, tool_exit_text);
    sb_puts(&b, "\n.SH SEE ALSO\nThe topology file format: doc/topology\\-format.md in the "
                "libtokenring sources.\n");
    fputs(b.p, stdout);
    free(b.p);
}
