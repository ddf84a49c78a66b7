// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The command line of the tools, over CLI11: the options every tool has
 * (-h/--help, --version, --device), counts with k and M suffixes, and one
 * behaviour for all of them: --help prints the usage on standard output
 * and exits 0, --version prints "<tool> <version>" and exits 0, a usage
 * error prints the error and the usage on standard error and exits 2.
 */
#pragma once

// CLI11 trips GCC 12's -Wnull-dereference inside libstdc++ (a false positive of
// its inlined vector<string> relocation), depending on what else a file inlines.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop
#include <cstdint>
#include <exception>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <tempo/version.hpp>

#include "tempo-tooling/parse.hpp"

namespace tempo::tooling {

/// What --version prints: "tempo-top 0.1.0".
inline std::string version_line(std::string_view tool)
{
    return std::string{tool} + " " + tempo::version_string;
}

/// The usage as tools print it: the usage line first, then the description,
/// the options, the commands and the footer.
class HelpFormatter : public CLI::Formatter {
public:
    HelpFormatter()
    {
        column_width(24);
        label("SUBCOMMAND", "COMMAND");
        label("Subcommands", "Commands");
    }

    std::string make_help(const CLI::App* app, std::string name,
                          CLI::AppFormatMode mode) const override
    {
        if (mode == CLI::AppFormatMode::Sub)
            return make_expanded(app);
        std::string help = make_usage(app, std::move(name));
        if (const std::string about = make_description(app); !about.empty())
            help += "\n" + about;
        help += make_positionals(app) + make_groups(app, mode) + make_subcommands(app, mode);
        if (const std::string footer = make_footer(app); !footer.empty())
            help += "\n" + footer;
        return help;
    }
};

/// Gives @app the tools' -h/--help and --version and their error output.
inline void setup(CLI::App& app)
{
    const std::string tool = app.get_name();
    app.formatter(std::make_shared<HelpFormatter>());
    app.set_help_flag("-h,--help", "print this help and exit");
    app.set_version_flag("--version", version_line(tool), "print the version and exit");
    app.failure_message([tool](const CLI::App* failed, const CLI::Error& e) {
        return tool + ": " + e.what() + "\n\n" + failed->help();
    });
}

/// Throws a usage error when @app requires a command and @argv's first
/// argument, not an option, names none of its commands.
inline void check_command(const CLI::App& app, int argc, char** argv)
{
    if (app.get_require_subcommand_min() == 0 || argc < 2 || argv[1][0] == '-')
        return;
    const std::string_view word{argv[1]};
    std::string names;
    for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
        if (command->check_name(std::string{word}))
            return;
        names += (names.empty() ? "" : ", ") + command->get_name();
    }
    throw CLI::ExtrasError("unknown command '" + std::string{word} + "' (commands: " + names + ")",
                           CLI::ExitCodes::ExtrasError);
}

/**
 * Parses the command line into the options added to @app. Returns the exit
 * status when the tool must stop there: 0 after --help or --version (their
 * output printed), 2 after a usage error (printed with the usage).
 */
inline std::optional<int> parse(CLI::App& app, int argc, char** argv)
{
    try {
        check_command(app, argc, argv);
        app.parse(argc, argv);
        return std::nullopt;
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
}

/// @text as a count: decimal digits, optionally followed by k (x 1000) or M (x 1000000).
inline std::optional<std::uint64_t> parse_count(std::string_view text)
{
    std::uint64_t multiplier = 1;
    if (!text.empty() && (text.back() == 'k' || text.back() == 'M')) {
        multiplier = text.back() == 'k' ? 1000 : 1000000;
        text.remove_suffix(1);
    }
    const auto value = parse_number<std::uint64_t>(text);
    if (!value || *value > std::numeric_limits<std::uint64_t>::max() / multiplier)
        return std::nullopt;
    return *value * multiplier;
}

/// @text, the value of option @name, as a count (parse_count()) in [@min, @max];
/// throws CLI::ValidationError, a usage error, if it is none.
inline std::uint64_t checked_count(const std::string& name, const std::string& text,
                                   std::uint64_t min, std::uint64_t max)
{
    const auto value = parse_count(text);
    if (!value)
        throw CLI::ValidationError(name, "not a count: " + text);
    if (*value < min)
        throw CLI::ValidationError(name, "must be at least " + std::to_string(min));
    if (*value > max)
        throw CLI::ValidationError(name, "must be at most " + std::to_string(max));
    return *value;
}

/// Adds option @name, a count (k and M suffixes) stored in @value, in [@min, @max].
template <typename T>
CLI::Option* add_count(CLI::App& app, const std::string& name, T& value, const std::string& help,
                       std::uint64_t min = 0, std::uint64_t max = std::numeric_limits<T>::max())
{
    const auto store = [&value, name, min, max](const std::string& text) {
        value = static_cast<T>(checked_count(name, text, min, max));
    };
    return app.add_option_function<std::string>(name, store, help)->type_name("N");
}

/// Adds --device PATH (stored in @path; empty: $TEMPO_DEVICE, else the first tempo node).
inline CLI::Option* add_device(CLI::App& app, std::string& path)
{
    return app
        .add_option("--device", path,
                    "the DRM render node (default: $TEMPO_DEVICE, else\n"
                    "the first render node driven by tempo)")
        ->type_name("PATH");
}

/// Runs @body, the tool's work: its exit status, or 1 after printing an
/// exception as "@tool: what".
template <typename Body>
int run(std::string_view tool, Body&& body)
{
    try {
        return std::forward<Body>(body)();
    } catch (const std::exception& e) {
        std::cerr << tool << ": " << e.what() << "\n";
        return 1;
    }
}

/// A tool's main(): parses the command line into the options added to
/// @app, then runs @body (run()); the exit status of either.
template <typename Body>
int run_main(CLI::App& app, int argc, char** argv, Body&& body)
{
    if (const auto status = parse(app, argc, argv))
        return *status;
    return run(app.get_name(), std::forward<Body>(body));
}

/// The main() of a tool with one set of options: @add_options(app, options)
/// adds them to the tool @name (described by @about), @body(options) does
/// the work (run_main()).
template <typename Options, typename AddOptions, typename Body>
int tool_main(int argc, char** argv, const char* about, const char* name, AddOptions add_options,
              Body body)
{
    Options options;
    CLI::App app{about, name};
    add_options(app, options);
    return run_main(app, argc, argv, [&] { return body(std::as_const(options)); });
}

} // namespace tempo::tooling
