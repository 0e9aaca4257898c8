//! Where webhook deliveries may connect. The hook client resolves each host's name itself
//! and refuses the name if any address it resolves to is not public
//! ([`missive_game::hook_address::is_public`]), unless local hooks are allowed; the client
//! then connects only to the addresses it returned, so a name cannot resolve to a public
//! address for the check and to another one for the connection. Hosts given as IP
//! addresses are checked before each delivery ([`missive_game::hook_address::hook_url`]).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use async_trait::async_trait;
use missive_game::hook_address::is_public;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use thiserror::Error;

/// Looks up the addresses of a host's name.
#[async_trait]
pub trait Names: Send + Sync {
    /// The addresses `host` resolves to.
    async fn lookup(&self, host: &str) -> std::io::Result<Vec<IpAddr>>;
}

/// The system's resolver.
pub struct SystemNames;

#[async_trait]
impl Names for SystemNames {
    async fn lookup(&self, host: &str) -> std::io::Result<Vec<IpAddr>> {
        let found = tokio::net::lookup_host((host, 0)).await?;
        Ok(found.map(|address| address.ip()).collect())
    }
}

/// Where deliveries may go, and how hosts' names are looked up.
#[derive(Clone)]
pub struct Reach {
    /// Whether local hooks are allowed: any address, and plain `http://`.
    pub local: bool,
    /// The resolver of hosts' names.
    pub names: Arc<dyn Names>,
}

impl Reach {
    /// Public addresses only (unless `local`), names looked up by the system's resolver.
    pub fn system(local: bool) -> Reach {
        Reach {
            local,
            names: Arc::new(SystemNames),
        }
    }

    /// Whether a delivery may connect to `ip`.
    pub fn allows(&self, ip: IpAddr) -> bool {
        self.local || is_public(ip)
    }
}

/// A host's name resolved to an address that is not public.
#[derive(Debug, Error)]
#[error("the host's name resolves to {0}, which is not a public address")]
pub struct NotPublic(pub IpAddr);

/// The hook client's resolver: [`Reach::names`], refusing names that lead where deliveries
/// may not go.
pub(crate) struct Guarded(pub Reach);

impl Resolve for Guarded {
    fn resolve(&self, name: Name) -> Resolving {
        let reach = self.0.clone();
        Box::pin(async move {
            let found = reach.names.lookup(name.as_str()).await?;
            if let Some(refused) = found.iter().find(|ip| !reach.allows(**ip)) {
                return Err(Box::new(NotPublic(*refused)) as _);
            }
            let addresses: Addrs = Box::new(found.into_iter().map(|ip| SocketAddr::new(ip, 0)));
            Ok(addresses)
        })
    }
}

/// The refusal of [`Guarded`] behind a client's `error`, if that is why it failed.
pub(crate) fn refusal(error: &reqwest::Error) -> Option<&NotPublic> {
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        if let Some(refused) = cause.downcast_ref::<NotPublic>() {
            return Some(refused);
        }
        source = cause.source();
    }
    None
}
