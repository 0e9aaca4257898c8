//! SOAP envelopes: a request's operation and its parameters read from SOAP 1.1 or 1.2, and
//! answers and faults written in the version the request came in.
//!
//! Reading never panics: text beyond the [`EnvelopeLimits`], not UTF-8, not XML (a DTD included:
//! none is read, so no entity is expanded), not an envelope with a body, or a body whose
//! first element is not an operation of the XfccBasic namespace is a [`Fault`] of the
//! sender's. Parameters are the
//! operation's child elements, by local name whatever their namespace (clients differ in
//! qualifying them); a parameter given twice is a fault.

use std::collections::HashMap;

use missive_board::escape;
use roxmltree::{Document, Node, ParsingOptions};

use crate::EnvelopeLimits;

/// The XfccBasic namespace: the operations' and the types' target namespace.
pub const XFCC_NS: &str = "http://www.bennedik.com/webservices/XfccBasic";
/// The SOAP 1.1 envelope namespace.
pub const SOAP11_NS: &str = "http://schemas.xmlsoap.org/soap/envelope/";
/// The SOAP 1.2 envelope namespace.
pub const SOAP12_NS: &str = "http://www.w3.org/2003/05/soap-envelope";

/// The SOAP version of a request, which its answer keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoapVersion {
    /// SOAP 1.1 (`text/xml`).
    Soap11,
    /// SOAP 1.2 (`application/soap+xml`).
    Soap12,
}

impl SoapVersion {
    /// The envelope namespace.
    pub fn namespace(self) -> &'static str {
        match self {
            SoapVersion::Soap11 => SOAP11_NS,
            SoapVersion::Soap12 => SOAP12_NS,
        }
    }

    /// The content type of an answer.
    pub fn content_type(self) -> &'static str {
        match self {
            SoapVersion::Soap11 => "text/xml; charset=utf-8",
            SoapVersion::Soap12 => "application/soap+xml; charset=utf-8",
        }
    }
}

/// One call read from an envelope: the operation's local name and its parameters' text.
#[derive(Debug, PartialEq, Eq)]
pub struct Call {
    /// The envelope's version.
    pub version: SoapVersion,
    /// The operation (`GetMyGames`, `MakeAMove`, ...).
    pub operation: String,
    params: HashMap<String, String>,
}

/// Whose fault a fault is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blame {
    /// The request was wrong (SOAP 1.1 `Client`, 1.2 `Sender`).
    Sender,
    /// The server failed (SOAP 1.1 `Server`, 1.2 `Receiver`).
    Receiver,
}

/// A SOAP fault: who is to blame and why, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Whose fault it is.
    pub blame: Blame,
    /// What went wrong, for people.
    pub reason: String,
}

impl Fault {
    /// A fault of the request's: `reason`.
    pub fn sender(reason: impl Into<String>) -> Fault {
        Fault {
            blame: Blame::Sender,
            reason: reason.into(),
        }
    }

    /// A fault of the server's: `reason`.
    pub fn receiver(reason: impl Into<String>) -> Fault {
        Fault {
            blame: Blame::Receiver,
            reason: reason.into(),
        }
    }
}

impl Call {
    /// The call `body` holds, read within `limits`, or the fault that says why there is
    /// none (naming the limit `body` is beyond); the version is the request's when its
    /// envelope could be told (SOAP 1.1 otherwise).
    pub fn parse(body: &[u8], limits: &EnvelopeLimits) -> Result<Call, (SoapVersion, Fault)> {
        let fail = |reason: &str| (SoapVersion::Soap11, Fault::sender(reason));
        let text = std::str::from_utf8(body).map_err(|_| fail("the request is not UTF-8"))?;
        limits.check(text).map_err(|reason| fail(&reason))?;
        let options = ParsingOptions {
            allow_dtd: false,
            nodes_limit: u32::try_from(limits.nodes).unwrap_or(u32::MAX),
        };
        let document =
            Document::parse_with_options(text, options).map_err(|error| match error {
                roxmltree::Error::NodesLimitReached => fail(&format!(
                    "the document has more than {} nodes",
                    limits.nodes
                )),
                error => fail(&format!("the request is not well-formed XML: {error}")),
            })?;
        let envelope = document.root_element();
        let version = match envelope.tag_name().namespace() {
            Some(SOAP11_NS) => SoapVersion::Soap11,
            Some(SOAP12_NS) => SoapVersion::Soap12,
            _ => return Err(fail("the document is not a SOAP 1.1 or 1.2 envelope")),
        };
        let fault = |reason: String| (version, Fault::sender(reason));
        if envelope.tag_name().name() != "Envelope" {
            return Err(fault("the document is not a SOAP envelope".into()));
        }
        let body = elements(envelope)
            .find(|node| node.tag_name().name() == "Body")
            .filter(|node| node.tag_name().namespace() == Some(version.namespace()))
            .ok_or_else(|| fault("the envelope has no body".into()))?;
        let operation = elements(body)
            .next()
            .ok_or_else(|| fault("the body names no operation".into()))?;
        if operation.tag_name().namespace() != Some(XFCC_NS) {
            return Err(fault(format!(
                "`{}` is not an operation of {XFCC_NS}",
                operation.tag_name().name()
            )));
        }
        let mut params = HashMap::new();
        for param in elements(operation) {
            let name = param.tag_name().name().to_string();
            let value = param.text().unwrap_or("").to_string();
            if params.insert(name.clone(), value).is_some() {
                return Err(fault(format!("the parameter `{name}` is given twice")));
            }
        }
        Ok(Call {
            version,
            operation: operation.tag_name().name().to_string(),
            params,
        })
    }

    /// The text parameter `name` (empty when left out).
    pub fn text(&self, name: &str) -> &str {
        self.params.get(name).map_or("", String::as_str)
    }

    /// The `xs:boolean` parameter `name` (false when left out or empty).
    pub fn flag(&self, name: &str) -> Result<bool, Fault> {
        match self.text(name).trim() {
            "" | "false" | "0" => Ok(false),
            "true" | "1" => Ok(true),
            other => Err(Fault::sender(format!(
                "`{name}` is an xs:boolean, not `{other}`"
            ))),
        }
    }

    /// The `xs:int` parameter `name`, which must be given.
    pub fn int(&self, name: &str) -> Result<i32, Fault> {
        let text = self.text(name).trim();
        text.parse()
            .map_err(|_| Fault::sender(format!("`{name}` must be an xs:int, not `{text}`")))
    }
}

/// The element children of `node`.
fn elements<'a, 'input>(node: Node<'a, 'input>) -> impl Iterator<Item = Node<'a, 'input>> {
    node.children().filter(Node::is_element)
}

/// The envelope of `version` around `body` (XML already escaped).
pub fn envelope(version: SoapVersion, body: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
         <soap:Envelope xmlns:soap=\"{}\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body>{body}</soap:Body></soap:Envelope>\n",
        version.namespace()
    )
}

/// The envelope of `version` holding `fault`, as each version spells a fault.
pub fn fault_envelope(version: SoapVersion, fault: &Fault) -> String {
    let reason = escape(&fault.reason);
    let body = match (version, fault.blame) {
        (SoapVersion::Soap11, blame) => {
            let code = match blame {
                Blame::Sender => "Client",
                Blame::Receiver => "Server",
            };
            format!(
                "<soap:Fault><faultcode>soap:{code}</faultcode>\
                 <faultstring>{reason}</faultstring></soap:Fault>"
            )
        }
        (SoapVersion::Soap12, blame) => {
            let code = match blame {
                Blame::Sender => "Sender",
                Blame::Receiver => "Receiver",
            };
            format!(
                "<soap:Fault><soap:Code><soap:Value>soap:{code}</soap:Value></soap:Code>\
                 <soap:Reason><soap:Text xml:lang=\"en\">{reason}</soap:Text></soap:Reason>\
                 </soap:Fault>"
            )
        }
    };
    envelope(version, &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(body: &[u8]) -> Result<Call, (SoapVersion, Fault)> {
        Call::parse(body, &EnvelopeLimits::XFCC)
    }

    fn soap11(body: &str) -> String {
        format!(
            "<?xml version=\"1.0\"?><s:Envelope xmlns:s=\"{SOAP11_NS}\"><s:Header/>\
             <s:Body>{body}</s:Body></s:Envelope>"
        )
    }

    #[test]
    fn a_soap11_call_gives_its_operation_and_parameters() {
        let call = parse(
            soap11(&format!(
                "<MakeAMove xmlns=\"{XFCC_NS}\"><username>ann</username>\
                 <password>a&amp;b</password><gameId> 42 </gameId><resign>true</resign>\
                 <myMove/></MakeAMove>"
            ))
            .as_bytes(),
        )
        .unwrap();
        assert_eq!(call.version, SoapVersion::Soap11);
        assert_eq!(call.operation, "MakeAMove");
        assert_eq!(call.text("username"), "ann");
        assert_eq!(call.text("password"), "a&b");
        assert_eq!(call.int("gameId"), Ok(42));
        assert_eq!(call.flag("resign"), Ok(true));
        assert_eq!(call.flag("offerDraw"), Ok(false));
        assert_eq!(call.text("myMove"), "");
        assert!(call.int("movecount").is_err());
    }

    #[test]
    fn a_soap12_call_with_prefixed_parameters_is_read() {
        let text = format!(
            "<e:Envelope xmlns:e=\"{SOAP12_NS}\" xmlns:x=\"{XFCC_NS}\"><e:Body>\
             <x:GetMyGames><x:username>bob</x:username><x:password>p</x:password>\
             </x:GetMyGames></e:Body></e:Envelope>"
        );
        let call = parse(text.as_bytes()).unwrap();
        assert_eq!(call.version, SoapVersion::Soap12);
        assert_eq!(call.operation, "GetMyGames");
        assert_eq!(call.text("username"), "bob");
    }

    #[test]
    fn what_is_not_a_call_is_a_fault_of_the_sender() {
        let entity_bomb = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY a \"aaaa\">\
                           <!ENTITY b \"&a;&a;&a;&a;\">]><x>&b;</x>";
        let cases: Vec<Vec<u8>> = vec![
            vec![0xff, 0xfe, 0x00],
            b"".to_vec(),
            b"not xml".to_vec(),
            b"<Envelope><Body/></Envelope>".to_vec(),
            entity_bomb.as_bytes().to_vec(),
            soap11("").into_bytes(),
            soap11("<GetMyGames/>").into_bytes(),
            soap11(&format!("<GetMyGames xmlns=\"{XFCC_NS}\"><username>a</username><username>b</username></GetMyGames>")).into_bytes(),
            format!("<s:Envelope xmlns:s=\"{SOAP11_NS}\"/>").into_bytes(),
            format!("<s:Envelope xmlns:s=\"{SOAP11_NS}\"><s:Body><GetMyGames xmlns=\"{XFCC_NS}\">").into_bytes(),
        ];
        for case in cases {
            let (_, fault) = parse(&case).unwrap_err();
            assert_eq!(
                fault.blame,
                Blame::Sender,
                "{}",
                String::from_utf8_lossy(&case)
            );
        }
    }

    /// The reason of the sender's fault `body` is read as.
    fn refusal(body: &str) -> String {
        let (_, fault) = parse(body.as_bytes()).unwrap_err();
        assert_eq!(fault.blame, Blame::Sender);
        fault.reason
    }

    /// A GetMyGames call whose username is wrapped in `depth` elements `<a>`, so its
    /// deepest element is `depth + 4` deep.
    fn nested(depth: usize) -> String {
        soap11(&format!(
            "<GetMyGames xmlns=\"{XFCC_NS}\"><username>{}ann{}</username></GetMyGames>",
            "<a>".repeat(depth),
            "</a>".repeat(depth)
        ))
    }

    #[test]
    fn a_document_nested_too_deep_is_a_fault_not_a_stack_overflow() {
        let deep = format!("{}{}", "<a>".repeat(100_000), "</a>".repeat(100_000));
        let limits = EnvelopeLimits {
            bytes: deep.len(),
            ..EnvelopeLimits::XFCC
        };
        let (version, fault) = Call::parse(deep.as_bytes(), &limits).unwrap_err();
        assert_eq!((version, fault.blame), (SoapVersion::Soap11, Blame::Sender));
        assert!(fault.reason.contains("deeper than 32"), "{}", fault.reason);
        let unclosed = "<a x=\"/>\"><!-- <b/> --><![CDATA[</a>]]><?p </a>?>".repeat(100_000);
        let limits = EnvelopeLimits {
            bytes: unclosed.len(),
            ..EnvelopeLimits::XFCC
        };
        let (_, fault) = Call::parse(unclosed.as_bytes(), &limits).unwrap_err();
        assert!(fault.reason.contains("deeper than 32"), "{}", fault.reason);
    }

    #[test]
    fn a_document_at_the_depth_limit_is_read_and_one_deeper_is_not() {
        let limit = EnvelopeLimits::XFCC.depth;
        let call = parse(nested(limit - 4).as_bytes()).unwrap();
        assert_eq!(call.operation, "GetMyGames");
        assert!(refusal(&nested(limit - 3)).contains("deeper than 32"));
    }

    #[test]
    fn too_many_elements_or_nodes_are_a_fault() {
        let siblings = |n: usize, item: &str| {
            soap11(&format!(
                "<GetMyGames xmlns=\"{XFCC_NS}\"><username>{}</username></GetMyGames>",
                item.repeat(n)
            ))
        };
        let many = siblings(100_000, "<a/>");
        let limits = EnvelopeLimits {
            bytes: many.len(),
            ..EnvelopeLimits::XFCC
        };
        let (_, fault) = Call::parse(many.as_bytes(), &limits).unwrap_err();
        assert!(
            fault.reason.contains("more than 2000 elements"),
            "{}",
            fault.reason
        );
        assert!(refusal(&siblings(2_000, "<a/>")).contains("more than 2000 elements"));
        assert!(refusal(&siblings(2_000, "x<!---->")).contains("more than 2000 nodes"));
        assert!(parse(siblings(1_000, "<a/>").as_bytes()).is_ok());
    }

    #[test]
    fn too_large_a_document_or_too_many_namespaces_are_a_fault() {
        let large = soap11(&format!(
            "<GetMyGames xmlns=\"{XFCC_NS}\"><username>{}</username></GetMyGames>",
            "x".repeat(EnvelopeLimits::XFCC.bytes)
        ));
        assert!(refusal(&large).contains("larger than 65536 bytes"));
        let declarations: String = (0..65).map(|i| format!(" xmlns:n{i}=\"u\"")).collect();
        let crowded = soap11(&format!(
            "<GetMyGames xmlns=\"{XFCC_NS}\"><username{declarations}>ann</username></GetMyGames>"
        ));
        assert!(refusal(&crowded).contains("more than 64 namespaces"));
    }

    #[test]
    fn bad_flags_and_numbers_are_faults() {
        let call = parse(
            soap11(&format!(
                "<MakeAMove xmlns=\"{XFCC_NS}\"><resign>yes</resign><gameId>99999999999</gameId></MakeAMove>"
            ))
            .as_bytes(),
        )
        .unwrap();
        assert!(call.flag("resign").is_err());
        assert!(call.int("gameId").is_err());
    }

    #[test]
    fn faults_are_spelt_as_each_version_spells_them_and_read_back_as_xml() {
        let fault = Fault::receiver("a < b & \"c\"");
        let one = fault_envelope(SoapVersion::Soap11, &fault);
        assert!(one.contains("<faultcode>soap:Server</faultcode>"), "{one}");
        assert!(one.contains("a &lt; b &amp; &quot;c&quot;"), "{one}");
        let two = fault_envelope(SoapVersion::Soap12, &Fault::sender("x"));
        assert!(
            two.contains("<soap:Value>soap:Sender</soap:Value>"),
            "{two}"
        );
        for text in [one, two] {
            assert!(Document::parse(&text).is_ok(), "{text}");
        }
    }
}
