//! Push services live on public addresses. A subscription names its endpoint, so without these
//! checks anyone signed in could make the server post to its own loopback, the private network
//! or a cloud metadata service. Names are checked when a subscription is stored, and every
//! address a name resolves to is checked again when a notification is sent (the resolver below),
//! so a name that later points inward is refused too.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// Host names that never leave the machine or the site, whatever DNS says.
const LOCAL_SUFFIXES: [&str; 5] = [
    "localhost",
    ".localhost",
    ".local",
    ".internal",
    ".home.arpa",
];

/// True for an address on the public internet: not loopback, private, shared (CGNAT),
/// link-local (where metadata services answer), unique-local, multicast, documentation,
/// benchmarking or reserved.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_public_v4(v4),
            None => is_public_v6(v6),
        },
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_documentation()
        || ip.is_multicast()
        || a == 0
        || (a == 100 && (64..128).contains(&b))
        || (a == 192 && b == 0 && c == 0)
        || (a == 198 && (b == 18 || b == 19))
        || a >= 240)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let segments = ip.segments();
    let first = segments[0];
    // IPv4-compatible (::a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d) and 6to4 (2002:ab:cd::)
    // addresses are carried to the IPv4 address they hold, so they are as public as it is.
    let carried = match segments {
        [0, 0, 0, 0, 0, 0, ..] | [0, 0, 0, 0, 0xffff, 0, ..] => Some(embedded_v4(ip)),
        [0x2002, high, low, ..] => Some(Ipv4Addr::from((u32::from(high) << 16) | u32::from(low))),
        _ => None,
    };
    !(ip.is_unspecified()
        || ip.is_loopback()
        || carried.is_some_and(|v4| !is_public_v4(v4))
        || ip.is_multicast()
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        || (first & 0xffc0) == 0xfec0
        || (first == 0x2001 && ip.segments()[1] == 0x0db8)
        // NAT64 (64:ff9b::/96) reaches whatever IPv4 address it embeds.
        || (first == 0x0064 && ip.segments()[1] == 0xff9b && !is_public_v4(embedded_v4(ip))))
}

fn embedded_v4(ip: Ipv6Addr) -> Ipv4Addr {
    let [.., a, b, c, d] = ip.octets();
    Ipv4Addr::new(a, b, c, d)
}

/// Why an endpoint host cannot be a push service, if it cannot: an address that is not public,
/// or a name that is local by definition.
pub fn refusal(host: &url::Host<&str>) -> Option<&'static str> {
    match host {
        url::Host::Ipv4(ip) if !is_public(IpAddr::V4(*ip)) => Some("is not a public address"),
        url::Host::Ipv6(ip) if !is_public(IpAddr::V6(*ip)) => Some("is not a public address"),
        url::Host::Domain(name) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            let local = LOCAL_SUFFIXES
                .iter()
                .any(|suffix| name == suffix.trim_start_matches('.') || name.ends_with(suffix))
                || !name.contains('.');
            local.then_some("is a local name")
        }
        _ => None,
    }
}

/// Resolves names as the system does and keeps only public addresses; a name with none is an
/// error, so the request is never made.
pub struct PublicOnly;

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            let host = name.as_str().to_string();
            let found: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await?
                .filter(|addr| is_public(addr.ip()))
                .collect();
            if found.is_empty() {
                return Err(format!("{host} has no public address").into());
            }
            let addrs: Addrs = Box::new(found.into_iter());
            Ok(addrs)
        })
    }
}

/// The client notifications are posted with: names resolved to public addresses only, and no
/// redirects (a push service answers, it does not send us elsewhere). `local` (the test-only
/// opt-in for a local push service) keeps the system resolver.
pub fn push_client(local: bool) -> reqwest::Result<reqwest::Client> {
    let builder = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none());
    let builder = if local {
        builder
    } else {
        builder.dns_resolver(Arc::new(PublicOnly))
    };
    builder.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public(text: &str) -> bool {
        is_public(text.parse().expect("an address"))
    }

    #[test]
    fn inward_addresses_are_not_public() {
        for inward in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "::1",
            "::",
            "fd00:ec2::254",
            "fe80::1",
            "::ffff:127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "::127.0.0.1",
            "::ffff:0:7f00:1",
            "::a9fe:a9fe",
            "2002:7f00:1::",
            "2002:c0a8:101::1",
        ] {
            assert!(!public(inward), "{inward}");
        }
        for outward in [
            "142.250.74.106",
            "2607:f8b0:4004:c1b::5f",
            "64:ff9b::8efa:4a6a",
            "2002:8efa:4a6a::1",
        ] {
            assert!(public(outward), "{outward}");
        }
    }

    #[test]
    fn local_names_are_refused_and_public_ones_pass() {
        for local in [
            "localhost",
            "push.localhost",
            "printer.local",
            "metadata.google.internal",
            "intranet",
        ] {
            assert!(refusal(&url::Host::Domain(local)).is_some(), "{local}");
        }
        assert!(refusal(&url::Host::Domain("fcm.googleapis.com")).is_none());
    }

    #[tokio::test]
    async fn the_resolver_gives_no_inward_address() {
        let name: Name = "localhost".parse().expect("a name");
        let answer = PublicOnly.resolve(name).await;
        assert!(answer.is_err(), "localhost resolves to loopback only");
    }
}
