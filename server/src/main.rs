//! The `parley` binary: parses arguments and starts the server or applies migrations.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use parley_server::app::Application;
use parley_server::config::Settings;
use parley_server::scheduling;
use parley_server::store::Store;
use parley_server::telemetry;

/// mimalloc instead of glibc's malloc: the ingest path allocates and frees many small objects per
/// message, and glibc spent a quarter of a saturated server's time on it (docs/BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "parley",
    version,
    about = "Business inbox for the WhatsApp Cloud API"
)]
struct Cli {
    /// Directory holding `config/` (defaults to the current directory).
    #[arg(long, global = true, default_value = ".")]
    root: PathBuf,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Start the server (the default).
    Serve {
        /// Listen address, e.g. 127.0.0.1:8080.
        #[arg(long)]
        bind: Option<String>,
        /// Data directory for SQLite, secrets and media.
        #[arg(long)]
        data_dir: Option<PathBuf>,
    },
    /// Apply database migrations and exit.
    Migrate,
}

#[actix_web::main]
async fn main() {
    if let Err(err) = run().await {
        // Exits before the runtime is dropped: actors started before the failure would
        // otherwise be polled one last time without a reactor, and panic over the error.
        eprintln!("Error: {err:?}");
        std::process::exit(1);
    }
}

async fn run() -> anyhow::Result<()> {
    telemetry::init();
    let cli = Cli::parse();
    let mut settings = Settings::load(&cli.root)?;
    match cli.command.unwrap_or(Command::Serve {
        bind: None,
        data_dir: None,
    }) {
        Command::Serve { bind, data_dir } => {
            // Before the server starts its threads, so that each inherits the policy.
            if let Err(err) = scheduling::run_as_batch() {
                tracing::warn!(error = %err, "the server's threads keep the default scheduling");
            }
            if let Some(bind) = bind {
                settings.server.bind = bind;
            }
            if let Some(dir) = data_dir {
                settings.server.data_dir = dir;
            }
            Application::build(settings)
                .await?
                .run_until_stopped()
                .await?;
        }
        Command::Migrate => {
            let store = Store::connect(&settings).await?;
            store.migrate().await?;
            store.close().await;
            println!("migrations applied");
        }
    }
    Ok(())
}
