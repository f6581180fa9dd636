/* SPDX-License-Identifier: Apache-2.0 */
/* --help and the man page, both generated from the command table (commands.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* The width --help wraps to (the cli suite checks that no line is longer). */
enum { HELP_WIDTH = 80, HELP_COL = 31 };

/* Appends TEXT wrapped at word boundaries: the first line continues a line already
 * COL characters long, the next lines are indented by INDENT. A word longer than the
 * room left is put on a line of its own, never cut. SHELL ends continued lines with
 * " \\" so that a wrapped example still pastes as one command. */
static void wrap_as(strbuf *b, const char *text, size_t col, size_t indent, bool shell)
{
    size_t width = shell ? HELP_WIDTH - 2 : HELP_WIDTH; /* room for " \\" */
    size_t at = col;
    bool line_empty = true;
    const char *s = text;
    while (*s) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        size_t w = strcspn(s, " ");
        if (!line_empty && at + 1 + w > width) {
            sb_puts(b, shell ? " \\\n" : "\n");
            for (size_t i = 0; i < indent; i++)
                sb_puts(b, " ");
            at = indent;
            line_empty = true;
        }
        if (!line_empty) {
            sb_puts(b, " ");
            at++;
        }
        sb_put(b, s, w);
        at += w;
        line_empty = false;
        s += w;
    }
    sb_puts(b, "\n");
}

static void wrap(strbuf *b, const char *text, size_t col, size_t indent)
{
    wrap_as(b, text, col, indent, false);
}

/* "  HEAD  summary": the summary starts at HELP_COL when HEAD fits before it, else on
 * the next line; both wrap. */
static void entry(strbuf *b, const char *head, const char *summary)
{
    sb_puts(b, "  ");
    size_t at = 2;
    if (2 + strlen(head) + 2 > HELP_COL) {
        wrap(b, head, 2, 6);
        for (at = 0; at < HELP_COL; at++)
            sb_puts(b, " ");
    } else {
        sb_puts(b, head);
        for (at = 2 + strlen(head); at < HELP_COL; at++)
            sb_puts(b, " ");
    }
    wrap(b, summary, HELP_COL, HELP_COL);
}

void print_help(void)
{
    strbuf b = { 0 };
    sb_puts(&b, "Usage: tokenring [OPTIONS] COMMAND [ARGS]\n\n");
    wrap(&b, tool_description, 0, 0);
    sb_puts(&b, "\nCommands:\n");
    for (size_t i = 0; i < tool_command_count; i++) {
        strbuf head = { 0 };
        sb_printf(&head, "%s%s%s", tool_commands[i].name, *tool_commands[i].args ? " " : "",
                  tool_commands[i].args);
        entry(&b, head.p, tool_commands[i].summary);
        free(head.p);
        sb_puts(&b, "      ");
        wrap(&b, tool_commands[i].details, 6, 6);
        sb_puts(&b, "      example: ");
        wrap_as(&b, tool_commands[i].example, 15, 10, true); /* a shell line */
    }
    sb_puts(&b, "\nOptions:\n");
    for (size_t i = 0; i < tool_option_count; i++) {
        strbuf head = { 0 };
        sb_printf(&head, "%s%s%s", tool_options[i].flag, tool_options[i].arg ? " " : "",
                  tool_options[i].arg ? tool_options[i].arg : "");
        entry(&b, head.p, tool_options[i].help);
        free(head.p);
    }
    sb_puts(&b, "\nExit status: ");
    wrap(&b, tool_exit_text, 13, 2);
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

const tool_command *find_command(const char *name)
{
    const char *names[64];
    size_t n = 0;
    for (size_t i = 0; i < tool_command_count; i++) {
        if (strcmp(tool_commands[i].name, name) == 0)
            return &tool_commands[i];
        if (n < sizeof names / sizeof *names)
            names[n++] = tool_commands[i].name;
    }
    char hint[160];
    die(EXIT_USAGE, "unknown command '%s' (see tokenring --help)%s", name,
        did_you_mean(name, names, n, hint, sizeof hint));
}

/* tokenring help CMD, tokenring CMD --help: the command's synopsis, summary, details,
 * example, and the options its text names. */
void print_command_help(const tool_command *cmd)
{
    strbuf b = { 0 };
    strbuf usage = { 0 };
    sb_printf(&usage, "Usage: tokenring [OPTIONS] %s%s%s", cmd->name, *cmd->args ? " " : "",
              cmd->args);
    wrap(&b, usage.p, 0, 4);
    free(usage.p);
    sb_puts(&b, "\n");
    wrap(&b, cmd->summary, 0, 0);
    sb_puts(&b, "\n");
    wrap(&b, cmd->details, 0, 0);
    sb_puts(&b, "\nExample:\n  ");
    wrap_as(&b, cmd->example, 2, 4, true);
    strbuf named = { 0 };
    for (size_t i = 0; i < tool_option_count; i++) {
        /* an option the command's text names, or one that names the command */
        const char *f = tool_options[i].flag;
        bool in_text = false;
        const char *texts[] = { cmd->args, cmd->details };
        for (size_t t = 0; t < 2 && !in_text; t++)
            for (const char *at = strstr(texts[t], f); at && !in_text; at = strstr(at + 1, f)) {
                char next = at[strlen(f)];
                in_text = !(next == '-' || (next >= 'a' && next <= 'z'));
            }
        const char *h = tool_options[i].help;
        size_t ln = strlen(cmd->name);
        for (const char *at = strstr(h, cmd->name); at && !in_text; at = strstr(at + 1, cmd->name)) {
            /* in a list of commands: "(join, ", ", ring)", "; balance" */
            bool listed = at == h || at[-1] == '(' ||
                          (at - h >= 2 && at[-1] == ' ' && (at[-2] == ',' || at[-2] == ';'));
            char after = at[ln];
            in_text = listed && (after == ',' || after == ')' || after == ';' || after == ':' ||
                                 after == ' ' || after == '\0');
        }
        if (!in_text)
            continue;
        strbuf head = { 0 };
        sb_printf(&head, "%s%s%s", f, tool_options[i].arg ? " " : "",
                  tool_options[i].arg ? tool_options[i].arg : "");
        entry(&named, head.p, tool_options[i].help);
        free(head.p);
    }
    if (named.p) {
        sb_puts(&b, "\nOptions of this command:\n");
        sb_puts(&b, named.p);
    }
    sb_puts(&b, "\n");
    wrap(&b, "The inputs (--topology, --nodetool-ring, --nodetool-status, --cqlsh, --schema, "
             "--input, --keyspace) and every other option: tokenring --help.", 0, 0);
    free(named.p);
    fputs(b.p, stdout);
    free(b.p);
}
