//! Where a webhook may be sent: the address checks of a hook's registration and of each
//! delivery.
//!
//! A hook's address is read as a browser reads it (WHATWG URL parsing), so every spelling
//! of an IPv4 address (`2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1`, percent-encoded
//! digits) is the address it spells. It must be `https://`, without credentials, and a host
//! given as an IP address must be a public one ([`is_public`]). A host given by name is
//! checked where it is resolved, at each delivery, on every address it resolves to.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ipnet::{Ipv4Net, Ipv6Net};
use thiserror::Error;
use url::{Host, Url};

/// Longest address a hook may have.
pub const MAX_URL: usize = 2048;

/// Why an address may not be a hook's.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum AddressError {
    /// Longer than [`MAX_URL`].
    #[error("too long")]
    TooLong,
    /// Not `https://` (nor `http://` where local hooks are allowed).
    #[error("must start with https://")]
    NotHttps,
    /// No host, a malformed one, or credentials.
    #[error("must name a host (without credentials)")]
    NoHost,
    /// A host that is this machine, a private network or another special-purpose address.
    #[error("must not be a loopback, private or other special-purpose address")]
    NotPublic,
}

/// Reads `text` as a hook's address: `https://` naming a host without credentials, that is
/// not `localhost` nor an IP address other than a public one; with `allow_local`, also
/// `http://` and any host.
pub fn hook_url(text: &str, allow_local: bool) -> Result<Url, AddressError> {
    if text.len() > MAX_URL {
        return Err(AddressError::TooLong);
    }
    let after_scheme = text.split_once("://").map(|(_, rest)| rest);
    if text.chars().any(char::is_whitespace)
        || after_scheme.is_none_or(|rest| rest.starts_with(['/', '\\']))
    {
        return Err(AddressError::NoHost);
    }
    let url = Url::parse(text).map_err(|_| AddressError::NoHost)?;
    match (url.scheme(), allow_local) {
        ("https", _) | ("http", true) => {}
        _ => return Err(AddressError::NotHttps),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(AddressError::NoHost);
    }
    let host = url.host().ok_or(AddressError::NoHost)?;
    if !allow_local && !is_public_host(&host) {
        return Err(AddressError::NotPublic);
    }
    Ok(url)
}

/// Whether `host` may be sent to as far as its spelling tells: an IP address that is
/// public, or a name other than `localhost` and its subdomains (a name's addresses are
/// checked when it is resolved).
fn is_public_host(host: &Host<&str>) -> bool {
    match host {
        Host::Ipv4(ip) => is_public(IpAddr::V4(*ip)),
        Host::Ipv6(ip) => is_public(IpAddr::V6(*ip)),
        Host::Domain(name) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            name != "localhost" && !name.ends_with(".localhost")
        }
    }
}

/// IPv4 blocks that are not the public internet (RFC 6890 and its successors).
const SPECIAL_V4: &[(Ipv4Addr, u8)] = &[
    (Ipv4Addr::new(0, 0, 0, 0), 8),       // "this network"
    (Ipv4Addr::new(10, 0, 0, 0), 8),      // private
    (Ipv4Addr::new(100, 64, 0, 0), 10),   // carrier-grade NAT (and cloud metadata)
    (Ipv4Addr::new(127, 0, 0, 0), 8),     // loopback
    (Ipv4Addr::new(169, 254, 0, 0), 16),  // link-local (and cloud metadata)
    (Ipv4Addr::new(172, 16, 0, 0), 12),   // private
    (Ipv4Addr::new(192, 0, 0, 0), 24),    // IETF protocol assignments
    (Ipv4Addr::new(192, 0, 2, 0), 24),    // documentation
    (Ipv4Addr::new(192, 88, 99, 0), 24),  // 6to4 relays
    (Ipv4Addr::new(192, 168, 0, 0), 16),  // private
    (Ipv4Addr::new(198, 18, 0, 0), 15),   // benchmarking
    (Ipv4Addr::new(198, 51, 100, 0), 24), // documentation
    (Ipv4Addr::new(203, 0, 113, 0), 24),  // documentation
    (Ipv4Addr::new(224, 0, 0, 0), 4),     // multicast
    (Ipv4Addr::new(240, 0, 0, 0), 4),     // reserved, and the broadcast address
];

/// IPv6 blocks that are not the public internet, or that reach IPv4 addresses through a
/// translation (RFC 6890 and its successors).
const SPECIAL_V6: &[(Ipv6Addr, u8)] = &[
    (Ipv6Addr::new(0, 0, 0, 0, 0, 0, 0, 0), 96), // IPv4-compatible (and ::, ::1)
    (Ipv6Addr::new(0, 0, 0, 0, 0, 0xffff, 0, 0), 96), // IPv4-mapped
    (Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, 0, 0), 96), // NAT64
    (Ipv6Addr::new(0x64, 0xff9b, 1, 0, 0, 0, 0, 0), 48), // local NAT64
    (Ipv6Addr::new(0x100, 0, 0, 0, 0, 0, 0, 0), 64), // discard
    (Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0), 32), // Teredo
    (Ipv6Addr::new(0x2001, 2, 0, 0, 0, 0, 0, 0), 48), // benchmarking
    (Ipv6Addr::new(0x2001, 0x10, 0, 0, 0, 0, 0, 0), 28), // ORCHID
    (Ipv6Addr::new(0x2001, 0x20, 0, 0, 0, 0, 0, 0), 28), // ORCHIDv2
    (Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0), 32), // documentation
    (Ipv6Addr::new(0x2002, 0, 0, 0, 0, 0, 0, 0), 16), // 6to4
    (Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0), 20), // documentation
    (Ipv6Addr::new(0xfc00, 0, 0, 0, 0, 0, 0, 0), 7), // unique-local (and cloud metadata)
    (Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0), 10), // link-local
    (Ipv6Addr::new(0xfec0, 0, 0, 0, 0, 0, 0, 0), 10), // site-local
    (Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0), 8), // multicast
];

/// Whether `ip` is an address of the public internet: not loopback, unspecified,
/// private, shared (carrier-grade NAT), link-local, multicast, broadcast, reserved, for
/// documentation or benchmarking, nor an IPv6 address standing for an IPv4 one (mapped,
/// compatible, NAT64, 6to4, Teredo).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(ip) => {
            !(ip.is_loopback()
                || ip.is_unspecified()
                || ip.is_private()
                || ip.is_link_local()
                || ip.is_multicast()
                || ip.is_broadcast()
                || ip.is_documentation()
                || SPECIAL_V4.iter().any(|&(net, len)| within_v4(ip, net, len)))
        }
        IpAddr::V6(ip) => {
            !(ip.is_loopback()
                || ip.is_unspecified()
                || ip.is_multicast()
                || ip.is_unique_local()
                || ip.is_unicast_link_local()
                || SPECIAL_V6.iter().any(|&(net, len)| within_v6(ip, net, len)))
        }
    }
}

/// Whether `ip` lies in the block `net`/`len`.
fn within_v4(ip: Ipv4Addr, net: Ipv4Addr, len: u8) -> bool {
    Ipv4Net::new(net, len).is_ok_and(|block| block.contains(&ip))
}

/// Whether `ip` lies in the block `net`/`len`.
fn within_v6(ip: Ipv6Addr, net: Ipv6Addr, len: u8) -> bool {
    Ipv6Net::new(net, len).is_ok_and(|block| block.contains(&ip))
}

#[cfg(test)]
mod tests {
    use super::{AddressError, hook_url, is_public};
    use std::net::IpAddr;

    #[test]
    fn internal_addresses_are_refused_however_they_are_spelled() {
        for spelling in [
            "https://127.0.0.1:9000/",
            "https://[::ffff:127.0.0.1]/",
            "https://[::ffff:7f00:1]/",
            "https://2130706433/",
            "https://0x7f000001/",
            "https://0177.0.0.1/",
            "https://127.1/",
            "https://0/",
            "https://[::127.0.0.1]/",
            "https://[0:0:0:0:0:ffff:127.0.0.1]/",
            "https://%31%32%37.0.0.1/",
            "https://127.0.0.1./",
            "https://localhost/",
            "https://localhost./",
            "https://LocalHost/",
            "https://a.localhost./",
            "https://169.254.169.254/latest/meta-data",
            "https://0xa9.0xfe.0xa9.0xfe/",
            "https://100.100.100.200/",
            "https://[fd00:ec2::254]/",
            "https://[::1]/",
            "https://10.0.0.1/",
            "https://192.168.1.1/",
            "https://172.16.0.1/",
        ] {
            assert_eq!(
                hook_url(spelling, false),
                Err(AddressError::NotPublic),
                "{spelling}"
            );
            assert!(hook_url(spelling, true).is_ok(), "{spelling}");
        }
    }

    #[test]
    fn hook_addresses_are_https_to_public_hosts_without_credentials() {
        assert!(hook_url("https://hooks.example.org/missive?k=1", false).is_ok());
        assert!(hook_url("https://8.8.8.8/", false).is_ok());
        assert!(hook_url("https://[2606:4700::1111]/", false).is_ok());
        for (refused, why) in [
            ("http://hooks.example.org/", AddressError::NotHttps),
            ("ftp://example.org/", AddressError::NotHttps),
            ("file:///etc/passwd", AddressError::NoHost),
            ("https://user:pw@example.org/", AddressError::NoHost),
            ("https://user@example.org/", AddressError::NoHost),
            ("https:///nohost", AddressError::NoHost),
            ("https://exa mple.org/", AddressError::NoHost),
            ("hooks.example.org", AddressError::NoHost),
            ("https://[fe80::1%25eth0]/", AddressError::NoHost),
        ] {
            assert_eq!(hook_url(refused, false), Err(why), "{refused}");
        }
        assert!(hook_url("http://127.0.0.1:9000/hook", true).is_ok());
        let long = format!("https://example.org/{}", "a".repeat(2100));
        assert_eq!(hook_url(&long, true), Err(AddressError::TooLong));
    }

    #[test]
    fn every_special_purpose_block_is_not_public() {
        for ip in [
            "0.1.2.3",
            "10.1.2.3",
            "100.64.0.1",
            "100.127.255.254",
            "127.0.0.1",
            "127.255.255.254",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.8",
            "192.0.2.1",
            "192.88.99.1",
            "192.168.0.9",
            "198.18.0.1",
            "198.19.255.255",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::ffff:8.8.8.8",
            "::8.8.8.8",
            "64:ff9b::808:808",
            "64:ff9b:1::1",
            "100::1",
            "2001::1",
            "2001:2::1",
            "2001:10::1",
            "2001:20::1",
            "2001:db8::1",
            "2002:808:808::1",
            "3fff::1",
            "fc00::1",
            "fd00:ec2::254",
            "fe80::1",
            "fec0::1",
            "ff02::1",
        ] {
            let ip: IpAddr = ip.parse().unwrap();
            assert!(!is_public(ip), "{ip}");
        }
        for ip in [
            "8.8.8.8",
            "1.1.1.1",
            "100.63.255.255",
            "100.128.0.1",
            "172.15.255.255",
            "172.32.0.1",
            "198.17.255.255",
            "198.20.0.1",
            "223.255.255.255",
            "2606:4700::1111",
            "2a00:1450:4001::200e",
            "2001:4860:4860::8888",
        ] {
            let ip: IpAddr = ip.parse().unwrap();
            assert!(is_public(ip), "{ip}");
        }
    }
}
