import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildRequestBlock, buildResponseBlock, detectXmlKind, parseRequestBlock, parseResponseBlock } from '../../src/wire/xml';

/** What the community Ruby gem sends (public-facts.md): a blank first line, no declaration, empty elements. */
const RUBY_GEM_AUTH = `
<requestblock version="3.67">
  <alias>webservices@example.test</alias>
  <request type="AUTH">
    <merchant>
      <orderreference>order-007</orderreference>
    </merchant>
    <billing>
      <payment type="VISA">
        <expirydate>12/2031</expirydate>
        <pan>4111111111111111</pan>
        <securitycode>123</securitycode>
      </payment>
      <amount currencycode="GBP">1050</amount>
      <premise>789</premise>
      <postcode>TE45 6ST</postcode>
      <county/>
      <name><prefix>Dr</prefix><first>Jo</first><last></last></name>
      <telephone type="M">+44 (0)20 7946 0000</telephone>
    </billing>
    <operation>
      <parenttransactionreference></parenttransactionreference>
      <accounttypedescription>ECOM</accounttypedescription>
      <sitereference>test_site12345</sitereference>
    </operation>
    <customerdob>1980-01-31</customerdob>
  </request>
</requestblock>
`;

describe('parseRequestBlock: what real clients send', () => {
  it('reads the Ruby gem style body (blank line, no declaration, empty elements dropped, free order)', () => {
    const { envelope, problems } = parseRequestBlock(RUBY_GEM_AUTH);
    assert.deepEqual(problems, []);
    assert.deepEqual(envelope, {
      version: '1.00',
      alias: 'webservices@example.test',
      request: [
        {
          requesttypedescriptions: ['AUTH'],
          orderreference: 'order-007',
          paymenttypedescription: 'VISA',
          expirydate: '12/2031',
          pan: '4111111111111111',
          securitycode: '123',
          currencyiso3a: 'GBP',
          baseamount: '1050',
          billingpremise: '789',
          billingpostcode: 'TE45 6ST',
          billingprefixname: 'Dr',
          billingfirstname: 'Jo',
          billingtelephonetype: 'M',
          billingtelephone: '+44 (0)20 7946 0000',
          accounttypedescription: 'ECOM',
          sitereference: 'test_site12345',
          customerdob: '1980-01-31',
        },
      ],
    });
  });

  it('accepts a declaration after leading blank lines and a byte-order mark', () => {
    const { envelope, problems } = parseRequestBlock('\uFEFF\n\n<?xml version="1.0" encoding="utf-8"?><requestblock version="3.67"><request type="STORE"/></requestblock>');
    assert.deepEqual(problems, []);
    assert.deepEqual(envelope, { version: '1.00', request: [{ requesttypedescriptions: ['STORE'] }] });
  });

  it('keeps values exactly: 0, 007, 12/2031, <&>, spaces, CDATA, character references', () => {
    const xml =
      '<requestblock version="3.67"><request type="ACCOUNTCHECK"><billing><amount currencycode="GBP">0</amount>' +
      '<payment><expirydate>12/2031</expirydate></payment><premise> 007 </premise><street>&lt;&amp;&gt;</street>' +
      '<town><![CDATA[<&amp;>]]></town><county>&#233;&#x41;&quot;&apos;</county></billing>' +
      '<operation><sitereference>007</sitereference></operation></request></requestblock>';
    const { envelope, problems } = parseRequestBlock(xml);
    assert.deepEqual(problems, []);
    const [req] = envelope.request as Record<string, unknown>[];
    assert.equal(req.baseamount, '0');
    assert.equal(req.expirydate, '12/2031');
    assert.equal(req.billingpremise, ' 007 ');
    assert.equal(req.sitereference, '007');
    assert.equal(req.billingstreet, '<&>');
    assert.equal(req.billingtown, '<&amp;>', 'CDATA is taken as is');
    assert.equal(req.billingcounty, 'éA"\'');
  });

  it('gives billingprefixname for the shared path of billingprefix (aliasOf)', () => {
    const xml = buildRequestBlock({ version: '1.00', request: [{ requesttypedescriptions: ['STORE'], billingprefix: 'Mr' }] });
    assert.match(xml, /<billing><name><prefix>Mr<\/prefix><\/name><\/billing>/);
    assert.deepEqual(parseRequestBlock(xml).envelope.request, [{ requesttypedescriptions: ['STORE'], billingprefixname: 'Mr' }]);
  });
});

describe('buildRequestBlock: the public element paths', () => {
  it('places fields at their dictionary paths, with the version and the type as attributes', () => {
    const xml = buildRequestBlock({
      alias: 'a',
      version: '1.00',
      request: [{ requesttypedescriptions: ['AUTH'], sitereference: 's', currencyiso3a: 'GBP', baseamount: '1050', pan: '4111111111111111', paymenttypedescription: 'VISA' }],
    });
    assert.equal(
      xml,
      '<?xml version="1.0" encoding="utf-8"?><requestblock version="3.67"><alias>a</alias><request type="AUTH">' +
        '<operation><sitereference>s</sitereference></operation><billing><amount currencycode="GBP">1050</amount>' +
        '<payment type="VISA"><pan>4111111111111111</pan></payment></billing></request></requestblock>',
    );
  });

  it('escapes through the builder: <&> and quotes in text and attributes, CR/LF/TAB as character references', () => {
    const value = '<&>"\'\r\n\tx';
    const xml = buildRequestBlock({ version: '1.00', request: [{ requesttypedescriptions: ['AUTH'], orderreference: value, paymenttypedescription: value }] });
    assert.ok(xml.includes('<orderreference>&lt;&amp;&gt;"\'&#xD;&#xA;&#x9;x</orderreference>'), xml);
    assert.ok(!/[\r\n\t]/.test(xml), 'no literal CR, LF or TAB that a parser would normalize');
    const [req] = parseRequestBlock(xml).envelope.request as Record<string, unknown>[];
    assert.equal(req.orderreference, value);
    assert.equal(req.paymenttypedescription, value);
  });

  it('writes filter and updates in the public shape', () => {
    const xml = buildRequestBlock({
      version: '1.00',
      request: [
        {
          requesttypedescriptions: ['TRANSACTIONUPDATE'],
          filter: { sitereference: [{ value: 'test_site12345' }], transactionreference: [{ value: '1-2-345' }, { value: '1-2-346' }] },
          updates: { baseamount: '2000', transactionactive: '0', settlebaseamount: '10' },
        },
      ],
    });
    assert.ok(
      xml.includes('<filter><sitereference>test_site12345</sitereference><transactionreference>1-2-345</transactionreference>' + '<transactionreference>1-2-346</transactionreference></filter>'),
      xml,
    );
    assert.ok(xml.includes('<updates><billing><amount>2000</amount></billing><operation><transactionactive>0</transactionactive></operation><settlebaseamount>10</settlebaseamount></updates>'), xml);
    const [req] = parseRequestBlock(xml).envelope.request as Record<string, unknown>[];
    assert.deepEqual(req.filter, { sitereference: [{ value: 'test_site12345' }], transactionreference: [{ value: '1-2-345' }, { value: '1-2-346' }] });
    assert.deepEqual(req.updates, { baseamount: '2000', transactionactive: '0', settlebaseamount: '10' });
  });

  it('keeps unknown fields by name, unknown nested data by path, SDK extras on the block', () => {
    const env = {
      alias: 'a',
      version: '1.00',
      libraryversion: 'python_1.0.25',
      request: [
        {
          requesttypedescriptions: ['AUTH'],
          requestreference: 'A1b2',
          versioninfo: 'Python::3.11::1.0.25::Linux',
          customeraccountnumber: '12345678',
          'customer/shoesize': '42',
          flags: { '@on': '1', item: ['a', 'b'] },
        },
      ],
    };
    const xml = buildRequestBlock(env);
    assert.ok(xml.includes('<libraryversion>python_1.0.25</libraryversion>'), xml);
    assert.ok(xml.includes('<requestreference>A1b2</requestreference>'), xml);
    assert.ok(xml.includes('<customer><shoesize>42</shoesize></customer>'), xml);
    const { envelope, problems } = parseRequestBlock(xml);
    assert.deepEqual(problems, []);
    assert.deepEqual(envelope, env);
  });

  it('never throws on values XML cannot carry: numbers become text, null and odd keys are left out', () => {
    const xml = buildRequestBlock({
      version: '1.00',
      request: [{ requesttypedescriptions: ['AUTH'], baseamount: 1050, credentialsonfile: true, billingtown: null, 'not a name': 'x', orderreference: 'a\u0000b' }],
    } as Record<string, unknown>);
    const { envelope, problems } = parseRequestBlock(xml);
    assert.deepEqual(problems, []);
    assert.deepEqual(envelope.request, [{ requesttypedescriptions: ['AUTH'], baseamount: '1050', credentialsonfile: 'true', orderreference: 'a\uFFFDb' }]);
    assert.doesNotThrow(() => buildRequestBlock(null as unknown as Record<string, unknown>));
    assert.doesNotThrow(() => buildRequestBlock({ request: 'AUTH' }));
  });

  it('keeps a wrong JSON version visible in the XML, and no version as no attribute', () => {
    assert.match(buildRequestBlock({ version: '2.00', request: [] }), /<requestblock version="2.00"\/>/);
    assert.match(buildRequestBlock({ request: [] }), /<requestblock\/>/);
  });
});

describe('several request types in one call', () => {
  it('one request element per type, in order, the fields in the first; parsing gives the types back in order', () => {
    for (const types of [
      ['AUTH', 'SUBSCRIPTION'],
      ['RISKDEC', 'AUTH'],
      ['AUTH', 'RISKDEC'],
    ]) {
      const env = { alias: 'a', version: '1.00', request: [{ requesttypedescriptions: types, sitereference: 'test_site12345', baseamount: '1050', currencyiso3a: 'GBP' }] };
      const xml = buildRequestBlock(env);
      const tags = xml.match(/<request [^>]*>|<request [^>]*\/>/g) ?? [];
      assert.deepEqual(tags, [`<request type="${types[0]}">`, `<request type="${types[1]}"/>`]);
      assert.deepEqual(parseRequestBlock(xml), { envelope: env, problems: [] });
    }
  });

  it('takes the union of fields over the request elements, in element order', () => {
    const xml =
      '<requestblock version="3.67"><request type="SUBSCRIPTION"><subscription type="RECURRING"><unit>MONTH</unit></subscription>' +
      '<operation><sitereference>s</sitereference></operation></request>' +
      '<request type="AUTH"><operation><sitereference>s</sitereference></operation><billing><amount currencycode="GBP">1</amount></billing></request></requestblock>';
    const { envelope, problems } = parseRequestBlock(xml);
    assert.deepEqual(problems, []);
    assert.deepEqual(envelope.request, [
      { requesttypedescriptions: ['SUBSCRIPTION', 'AUTH'], subscriptiontype: 'RECURRING', subscriptionunit: 'MONTH', sitereference: 's', currencyiso3a: 'GBP', baseamount: '1' },
    ]);
  });

  it('reports request elements that disagree, keeping both values', () => {
    const xml =
      '<requestblock version="3.67"><request type="AUTH"><operation><sitereference>a</sitereference></operation></request>' +
      '<request type="SUBSCRIPTION"><operation><sitereference>b</sitereference></operation></request></requestblock>';
    const { envelope, problems } = parseRequestBlock(xml);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /request element 2 gives sitereference a different value/);
    assert.deepEqual((envelope.request as Record<string, unknown>[])[0].sitereference, ['a', 'b']);
  });
});

describe('responses', () => {
  const twoParts = {
    requestreference: 'A7x9',
    version: '1.00',
    response: [
      {
        requesttypedescription: 'RISKDEC',
        errorcode: '0',
        errormessage: 'Ok',
        transactionreference: '17-2-81001',
        fraudcontrolshieldstatuscode: 'ACCEPT',
        acquirerrecommendedaction: 'C',
        fraudcontrolreference: 'fc-1',
        fraudcontrolresponsecode: '0100',
        rulecategoryflag: 'NONE',
        rulecategorymessage: 'no rule',
      },
      {
        requesttypedescription: 'AUTH',
        errorcode: '30000',
        errormessage: 'Invalid field',
        errordata: ['pan', 'expirydate'],
        parenttransactionreference: '17-2-81001',
        securityresponseaddress: '2',
        securityresponsepostcode: '4',
        securityresponsesecuritycode: '0',
        transactionstartedtimestamp: '2026-01-05 09:00:00',
        settleduedate: '2026-01-05',
        settlestatus: '0',
        maskedpan: '411111######1111',
      },
    ],
    secrand: 'Zx0',
  };

  it('round-trips a two-part response in order, at the public paths', () => {
    const xml = buildResponseBlock(twoParts);
    for (const fragment of [
      '<responseblock version="3.67"><requestreference>A7x9</requestreference><response type="RISKDEC">',
      '<fraudcontrol><shieldstatuscode>ACCEPT</shieldstatuscode><recommendedaction>C</recommendedaction><reference>fc-1</reference>' +
        '<responsecode>0100</responsecode><categoryflag>NONE</categoryflag><categorymessage>no rule</categorymessage></fraudcontrol>',
      '<response type="AUTH"><error><code>30000</code><message>Invalid field</message><data>pan</data><data>expirydate</data></error>',
      '<security><address>2</address><postcode>4</postcode><securitycode>0</securitycode></security>',
      '<timestamp>2026-01-05 09:00:00</timestamp><settlement><settleduedate>2026-01-05</settleduedate><settlestatus>0</settlestatus></settlement>',
      '<secrand>Zx0</secrand></responseblock>',
    ]) {
      assert.ok(xml.includes(fragment), `missing ${fragment} in ${xml}`);
    }
    assert.deepEqual(parseResponseBlock(xml), { envelope: twoParts, problems: [] });
  });

  it('reads names without their namespace prefix, and xmlns declarations as no field (Namespaces in XML)', () => {
    const plain = buildResponseBlock(twoParts);
    const withPrefix = plain.replace(/<(\/?)([A-Za-z_])/g, '<$1sp:$2').replace('<sp:responseblock ', '<sp:responseblock xmlns:sp="urn:x" ');
    const withDefault = plain.replace('<responseblock ', '<responseblock xmlns="urn:x" ');
    assert.equal(detectXmlKind(withPrefix), 'response');
    assert.deepEqual(parseResponseBlock(withPrefix), { envelope: twoParts, problems: [] });
    assert.deepEqual(parseResponseBlock(withDefault), { envelope: twoParts, problems: [] });
    // The local name still decides: a prefixed root of another name is not a responseblock.
    assert.equal(detectXmlKind('<sp:responseBlock xmlns:sp="urn:x" version="3.67"/>'), undefined);
  });

  it('writes a query answer as found and one record element per record', () => {
    const env = {
      version: '1.00',
      response: [
        {
          requesttypedescription: 'TRANSACTIONQUERY',
          errorcode: '0',
          found: '2',
          records: [
            { requesttypedescription: 'STORE', transactionreference: '1-2-3', maskedpan: '411111######1111', transactionactive: '1' },
            { requesttypedescription: 'STORE', transactionreference: '1-2-4' },
          ],
        },
      ],
    };
    const xml = buildResponseBlock(env);
    assert.ok(xml.includes('<found>2</found><record type="STORE"><transactionreference>1-2-3</transactionreference><billing><payment><pan>411111######1111</pan></payment></billing>'), xml);
    assert.equal((xml.match(/<record /g) ?? []).length, 2);
    assert.deepEqual(parseResponseBlock(xml), { envelope: env, problems: [] });
  });

  it('gives a single errordata item and a single record back as lists', () => {
    const xml =
      '<responseblock version="3.67"><response type="TRANSACTIONQUERY"><error><code>30000</code><data>pan</data></error>' +
      '<found>1</found><record type="STORE"><transactionreference>1-2-3</transactionreference></record></response></responseblock>';
    const parts = parseResponseBlock(xml).envelope.response as Record<string, unknown>[];
    assert.deepEqual(parts[0].errordata, ['pan']);
    assert.deepEqual(parts[0].records, [{ requesttypedescription: 'STORE', transactionreference: '1-2-3' }]);
  });
});

describe('bad input gives problems, never an exception', () => {
  const cases: [string, string, RegExp][] = [
    ['malformed', '<requestblock version="3.67"><request type="AUTH"><alias></request></requestblock>', /not well-formed XML at line 1, column \d+/],
    ['not XML at all', '{"alias":"a"}', /not well-formed XML/],
    ['empty body', '', /the body is empty/],
    ['two roots', '<requestblock version="3.67"/><requestblock version="3.67"/>', /2 root elements/],
    ['text after the root', '<requestblock version="3.67"/>junk', /text outside the root element/],
    ['a DTD (entity expansion)', '<!DOCTYPE requestblock [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]><requestblock version="3.67">&b;</requestblock>', /DOCTYPE is not accepted/],
    ['wrong root', '<responseblock version="3.67"><response type="AUTH"/></responseblock>', /root element is <responseblock>; the document's request block is <requestblock>/],
  ];
  for (const [name, xml, expected] of cases) {
    it(`${name}: envelope {} and a problem`, () => {
      const { envelope, problems } = parseRequestBlock(xml);
      assert.deepEqual(envelope, {});
      assert.equal(problems.length, 1, problems.join('; '));
      assert.match(problems[0], expected);
    });
  }

  it('a DOCTYPE that declares nothing (none, or an external DTD never fetched) is well-formed XML: read as without it, lines kept', () => {
    const block = '<requestblock version="3.67"><alias>a</alias><request type="AUTH"/></requestblock>';
    for (const prolog of [
      '<!DOCTYPE requestblock>',
      '<?xml version="1.0"?>\n<!DOCTYPE requestblock SYSTEM "requestblock.dtd">\n',
      "<!-- c --><!DOCTYPE requestblock PUBLIC '-//X//EN' 'http://x.test/y.dtd'>",
    ]) {
      assert.deepEqual(parseRequestBlock(prolog + block), { envelope: { version: '1.00', alias: 'a', request: [{ requesttypedescriptions: ['AUTH'] }] }, problems: [] }, prolog);
    }
    assert.match(parseRequestBlock('<!DOCTYPE requestblock>\n<requestblock version="3.67"><alias></b></requestblock>').problems[0], /at line 2/);
    // One that declares anything stays refused, however it is written (an external id before the subset).
    assert.match(parseRequestBlock('<!DOCTYPE requestblock SYSTEM "a.dtd" [<!ENTITY x "y">]>' + block).problems[0], /DOCTYPE is not accepted/);
  });

  it('counts the line of a problem from the first line of the body, blank lines included', () => {
    const { problems } = parseRequestBlock('\n\n<requestblock version="3.67">\n<alias></request>\n</requestblock>');
    assert.match(problems[0], /at line 4/);
  });

  it('reports a wrong version, a missing version, a missing request and a request without type', () => {
    assert.deepEqual(parseRequestBlock('<requestblock version="3.66"><request type="AUTH"/></requestblock>'), {
      // Any version but 3.67 stays visibly other in the JSON form, so that the one version check refuses it.
      envelope: { version: 'requestblock 3.66', request: [{ requesttypedescriptions: ['AUTH'] }] },
      problems: ['<requestblock> version is "3.66"; the document\'s is "3.67" (Versioning 2)'],
    });
    assert.match(parseRequestBlock('<requestblock><request type="AUTH"/></requestblock>').problems.join(), /has no version attribute/);
    // A block saying 1.00 (the JSON envelope's version) is not a 3.67 block: never read as the JSON form's 1.00.
    const v100 = parseRequestBlock('<requestblock version="1.00"><request type="AUTH"/></requestblock>');
    assert.notEqual(v100.envelope.version, '1.00');
    assert.match(v100.problems.join(), /version is "1.00"; the document's is "3.67"/);
    assert.match(parseRequestBlock('<requestblock version="3.67"><alias>a</alias></requestblock>').problems.join(), /has no <request> element/);
    assert.match(parseRequestBlock('<requestblock version="3.67"><request type=""/><request/></requestblock>').problems.join(), /request element 1 has no type.*request element 2 has no type/);
  });

  it('reports an undefined entity and leaves it undecoded', () => {
    const { envelope, problems } = parseRequestBlock('<requestblock version="3.67"><request type="AUTH"><billing><town>a&foo;b</town></billing></request></requestblock>');
    assert.match(problems.join(), /undefined entity &foo;/);
    assert.equal((envelope.request as Record<string, unknown>[])[0].billingtown, 'a&foo;b');
  });

  it('refuses element names that would pollute prototypes, as a problem', () => {
    const { envelope, problems } = parseRequestBlock('<requestblock version="3.67"><request type="AUTH"><__proto__>1</__proto__></request></requestblock>');
    assert.deepEqual(envelope, {});
    assert.match(problems.join(), /not well-formed XML/);
  });

  it('masks a card number that appears in a problem', () => {
    const { problems } = parseRequestBlock('<requestblock version="4111111111111111"><request type="AUTH"/></requestblock>');
    assert.ok(problems.length > 0);
    assert.ok(!problems.join().includes('4111111111111111'), problems.join());
    assert.ok(problems.join().includes('411111######1111'));
  });

  it('response side: malformed, wrong root, wrong version, no parts, part without type', () => {
    assert.deepEqual(parseResponseBlock('<responseblock').envelope, {});
    assert.match(parseResponseBlock('<requestblock version="3.67"/>').problems.join(), /root element is <requestblock>/);
    assert.match(parseResponseBlock('<responseblock version="1.00"><response type="AUTH"/></responseblock>').problems.join(), /version is "1.00"/);
    assert.match(parseResponseBlock('<responseblock version="3.67"/>').problems.join(), /has no <response> element/);
    assert.match(parseResponseBlock('<responseblock version="3.67"><response/></responseblock>').problems.join(), /response element 1 has no type/);
    assert.doesNotThrow(() => parseResponseBlock(42 as unknown as string));
  });
});

describe('detectXmlKind', () => {
  it('names the block by its root element, after blank lines, a declaration and comments', () => {
    assert.equal(detectXmlKind(RUBY_GEM_AUTH), 'request');
    assert.equal(detectXmlKind('<?xml version="1.0"?>\n<!-- c --><responseblock version="3.67"/>'), 'response');
    assert.equal(detectXmlKind('<other/>'), undefined);
    assert.equal(detectXmlKind('{"alias":"a"}'), undefined);
    assert.equal(detectXmlKind(''), undefined);
  });
});
