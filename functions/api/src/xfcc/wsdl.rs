//! The service's WSDL: the XfccBasic operations, their types and two bindings (SOAP 1.1
//! and 1.2) at one address, the server's public URL and `/xfcc`.
//!
//! Written from the same lists the answers are written from ([`GAME_FIELDS`],
//! [`RESULTS`], [`MOVE_RESULTS`]), so the description and the answers cannot disagree.

use missive_board::escape;

use super::answer::MOVE_RESULTS;
use super::games::{GAME_FIELDS, RESULTS};
use missive_xfcc::XFCC_NS;

/// The parameters of `MakeAMove`, in order, with their types.
pub const MOVE_PARAMS: [(&str, &str); 10] = [
    ("username", "s:string"),
    ("password", "s:string"),
    ("gameId", "s:int"),
    ("resign", "s:boolean"),
    ("acceptDraw", "s:boolean"),
    ("movecount", "s:int"),
    ("myMove", "s:string"),
    ("offerDraw", "s:boolean"),
    ("claimDraw", "s:boolean"),
    ("myMessage", "s:string"),
];

/// The WSDL with the service at `address`.
pub fn wsdl(address: &str) -> String {
    let address = escape(address);
    let game_fields = sequence(&GAME_FIELDS);
    let move_params = sequence(&MOVE_PARAMS);
    let results = enumeration(&RESULTS);
    let move_results = enumeration(&MOVE_RESULTS);
    let bindings: String = [("XfccBasicSoap", "soap"), ("XfccBasicSoap12", "soap12")]
        .iter()
        .map(|(name, prefix)| binding(name, prefix))
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:tns="{XFCC_NS}" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" targetNamespace="{XFCC_NS}">
<wsdl:documentation>Xfcc for Missive: the player's chess games (GetMyGames) and their moves (MakeAMove). The password is an application password of the player's.</wsdl:documentation>
<wsdl:types>
<s:schema elementFormDefault="qualified" targetNamespace="{XFCC_NS}">
<s:element name="GetMyGames"><s:complexType><s:sequence>
<s:element minOccurs="0" maxOccurs="1" name="username" type="s:string"/>
<s:element minOccurs="0" maxOccurs="1" name="password" type="s:string"/>
</s:sequence></s:complexType></s:element>
<s:element name="GetMyGamesResponse"><s:complexType><s:sequence>
<s:element minOccurs="0" maxOccurs="1" name="GetMyGamesResult" type="tns:ArrayOfXfccGame"/>
</s:sequence></s:complexType></s:element>
<s:complexType name="ArrayOfXfccGame"><s:sequence>
<s:element minOccurs="0" maxOccurs="unbounded" name="XfccGame" nillable="true" type="tns:XfccGame"/>
</s:sequence></s:complexType>
<s:complexType name="XfccGame"><s:sequence>
{game_fields}</s:sequence></s:complexType>
<s:simpleType name="Result"><s:restriction base="s:string">
{results}</s:restriction></s:simpleType>
<s:element name="MakeAMove"><s:complexType><s:sequence>
{move_params}</s:sequence></s:complexType></s:element>
<s:element name="MakeAMoveResponse"><s:complexType><s:sequence>
<s:element minOccurs="1" maxOccurs="1" name="MakeAMoveResult" type="tns:MakeAMoveResult"/>
</s:sequence></s:complexType></s:element>
<s:simpleType name="MakeAMoveResult"><s:restriction base="s:string">
{move_results}</s:restriction></s:simpleType>
</s:schema>
</wsdl:types>
<wsdl:message name="GetMyGamesSoapIn"><wsdl:part name="parameters" element="tns:GetMyGames"/></wsdl:message>
<wsdl:message name="GetMyGamesSoapOut"><wsdl:part name="parameters" element="tns:GetMyGamesResponse"/></wsdl:message>
<wsdl:message name="MakeAMoveSoapIn"><wsdl:part name="parameters" element="tns:MakeAMove"/></wsdl:message>
<wsdl:message name="MakeAMoveSoapOut"><wsdl:part name="parameters" element="tns:MakeAMoveResponse"/></wsdl:message>
<wsdl:portType name="XfccBasicSoap">
<wsdl:operation name="GetMyGames"><wsdl:input message="tns:GetMyGamesSoapIn"/><wsdl:output message="tns:GetMyGamesSoapOut"/></wsdl:operation>
<wsdl:operation name="MakeAMove"><wsdl:input message="tns:MakeAMoveSoapIn"/><wsdl:output message="tns:MakeAMoveSoapOut"/></wsdl:operation>
</wsdl:portType>
{bindings}<wsdl:service name="XfccBasic">
<wsdl:port name="XfccBasicSoap" binding="tns:XfccBasicSoap"><soap:address location="{address}"/></wsdl:port>
<wsdl:port name="XfccBasicSoap12" binding="tns:XfccBasicSoap12"><soap12:address location="{address}"/></wsdl:port>
</wsdl:service>
</wsdl:definitions>
"#
    )
}

/// Elements of `fields`, each once; the `s:int` and `s:boolean` ones required (value
/// types), the others optional.
fn sequence(fields: &[(&str, &str)]) -> String {
    fields
        .iter()
        .map(|(name, kind)| {
            let least = match *kind {
                "s:int" | "s:boolean" | "tns:Result" => 1,
                _ => 0,
            };
            format!("<s:element minOccurs=\"{least}\" maxOccurs=\"1\" name=\"{name}\" type=\"{kind}\"/>\n")
        })
        .collect()
}

/// The `values` of an enumeration.
fn enumeration(values: &[&str]) -> String {
    values
        .iter()
        .map(|value| format!("<s:enumeration value=\"{value}\"/>\n"))
        .collect()
}

/// The binding `name` of the port type, in the SOAP version `prefix` names.
fn binding(name: &str, prefix: &str) -> String {
    let operations: String = ["GetMyGames", "MakeAMove"]
        .iter()
        .map(|operation| {
            format!(
                "<wsdl:operation name=\"{operation}\"><{prefix}:operation soapAction=\"{XFCC_NS}/{operation}\" style=\"document\"/>\
                 <wsdl:input><{prefix}:body use=\"literal\"/></wsdl:input>\
                 <wsdl:output><{prefix}:body use=\"literal\"/></wsdl:output></wsdl:operation>\n"
            )
        })
        .collect();
    format!(
        "<wsdl:binding name=\"{name}\" type=\"tns:XfccBasicSoap\">\
         <{prefix}:binding transport=\"http://schemas.xmlsoap.org/soap/http\"/>\n{operations}</wsdl:binding>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wsdl_is_xml_with_the_address_and_every_field() {
        let text = wsdl("https://chess.example.org/xfcc?a=1&b=2");
        let document = roxmltree::Document::parse(&text).unwrap();
        let location = document
            .descendants()
            .find(|node| node.has_tag_name("address"))
            .and_then(|node| node.attribute("location"));
        assert_eq!(location, Some("https://chess.example.org/xfcc?a=1&b=2"));
        for (name, _) in GAME_FIELDS.iter().chain(&MOVE_PARAMS) {
            assert!(text.contains(&format!("name=\"{name}\"")), "{name}");
        }
    }
}
