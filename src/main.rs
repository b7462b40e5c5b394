//! The `ylemctl` binary: run the library and exit with its code.

fn main() {
    std::process::exit(ylemctl::main_entry());
}
