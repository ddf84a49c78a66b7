// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The command line of the tools, over CLI11: the options every tool has
 * (-h/--help, --version, --device), counts with k and M suffixes that
 * CLI11's validators check, and one behaviour for all of them: --help
 * prints the usage on standard output and exits 0, --version prints
 * "<tool> <version>" and exits 0, a usage error prints CLI11's error and
 * the usage on standard error and exits 2.
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
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <tempo/version.hpp>

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

/// The largest count an option of type T takes: what T holds, below
/// INT64_MAX, which is what CLI11 2.1 reads a larger number as (strtoll
/// saturates): CLI::Range refuses it.
template <typename T>
constexpr std::int64_t count_max()
{
    constexpr auto max = std::numeric_limits<T>::max();
    constexpr auto below_int64_max = std::numeric_limits<std::int64_t>::max() - 1;
    return std::cmp_greater(max, below_int64_max) ? below_int64_max
                                                  : static_cast<std::int64_t>(max);
}

/**
 * Adds option @name, a count stored in @value, which CLI11 checks: a k
 * (x 1000) or M (x 1000000) suffix multiplies it (CLI::AsNumberWithUnit),
 * it must lie in [@min, @max] (CLI::Range). A value that is none is a
 * usage error with CLI11's message: "--count: Value 0 not in range 1 to
 * 5000". The range is over std::int64_t, whose conversion refuses a
 * negative value that T, unsigned, would wrap.
 */
template <typename T>
CLI::Option* add_count(CLI::App& app, const std::string& name, T& value, const std::string& help,
                       std::int64_t min = 0, std::int64_t max = count_max<T>())
{
    static const std::map<std::string, std::int64_t> suffixes{{"k", 1000}, {"M", 1000000}};
    // The help states the range and the suffixes: no validator adds to the type's name.
    return app.add_option(name, value, help)
        ->transform(
            CLI::AsNumberWithUnit(suffixes, CLI::AsNumberWithUnit::CASE_SENSITIVE).description(""))
        ->check(CLI::Range(min, max).description(""))
        ->type_name("N");
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
