import { describe, expect, it } from 'vitest';
import { decodeFields, decryptCrypt, encodeFields, encryptCrypt, openCrypt } from './opayo-crypt.ts';
import { readOpayoResponse } from './opayo.ts';

// Published vectors (thephpleague/omnipay-sagepay tests), recorded in ../shared/spec/opayo-test-vectors.md.
const requestPassword = '12345678abcdeabc';
const requestPlain =
  'Description=Some message&Amount=10.00&Currency=EUR&VendorData=&VendorTxCode=123&ApplyAVSCV2=0&Apply3DSecure=0&BillingFirstnames=Example&BillingSurname=User&BillingAddress1=123 Billing St&BillingAddress2=Billsville&BillingCity=Billstown&BillingPostCode=12345&BillingState=CA&BillingCountry=US&BillingPhone=(555) 123-4567&DeliveryFirstnames=Example&DeliverySurname=User&DeliveryAddress1=123 Shipping St&DeliveryAddress2=Shipsville&DeliveryCity=Shipstown&DeliveryPostCode=54321&DeliveryState=NY&DeliveryCountry=US&DeliveryPhone=(555) 987-6543&SuccessURL=https://www.example.com/return&FailureURL=https://www.example.com/return';
const requestCrypt =
  '@BE1508740B97BEC235E9E8474168E3D4DEAD71C1395CDAC1A24F4784A71135AE797F5451F48EB2EAF5669EB3F6953F466FC3A03E5815E607C4DD18C03D7BDD61D176DB4DF131DC0F02DFC5145FFBA841651641BDAA405E72F4EF8849C2B2FD1F08763E3E66EAF3C479429A92014C7B8316F3B446BA09D28A821EE81C243E3DDD6F4C1F41D6ADEAC74D42B221645ADCC69E2F22ECDCAA010F63CCD02EAF0CE20F98439DAC7C31E528A7574656191150C1CC6CCD9FBEFCBFC9B34029FAB8F62DBC1C1618628FF0529B4E66B8AB857A79CC2FD0F14299A3505D22F964322755E6190EDD5BD42066D88154F950585236B6A2951D28BDA474E3FB17638DAA2F6304EAEA3AB9513DD0604D447000208D55DA4FDF544BEE00B5744170C1FC1E6DC6AADA07BEF6EB1FA46C14B99C3371491816A5C2CF7E03EDF6D58142767F7550DFFFE634FA56532605768FFEC1B20BEC32177816DDAB804149E9A301E495F11568F58896E90B1AC5776C2F12CE578955292F640A1E81213AAAA7856CD622FC241C65AC08215B94F933FD47050E0CFB2BFA85D7570A9D401B2366001AA377C50825B6D3893BDEC46D87F9121EC39DBF948F69399B8E842635556C7BC08E2E0C85CFA3EA2F9E4582ABDB3EB9668C83EDC34A5862F3CBC1A10935A189493D42D5C3FE4AF2BFF29B8464934B221B5A56B407F4E638B6766E6C706996A0252F2DDB30AFC8C1DA65F89987F4A9AA317BB104ED42F749DE3A43C39C515B67B3EA619D4092843DA551EEFC22CF672F53F753DEB93F1E8487BFE89C0100AFB9799238B24E523B0D6D53F824DEC0F6897F97FA507648D13276841B3B2E98030CBCD8E04F5E2C06C57BCC6F6C346440E620718F8877FFE969';
const responsePassword = '2f52208a25a1facf';
const responseCrypt =
  '@5548276239c33e937e4d9d847d0a01f4c05f1b71dd5cd32568b6985a6d6834aca672315cf3eec01bb20d34cd1ccd7bdd69a9cd89047f7f875103b46efd8f7b97847eea6b6bab5eb8b61da9130a75fffa1c9152b7d39f77e534ea870281b8e280ea1fdbd49a8f5a7c67d1f512fe7a030e81ae6bd2beed762ad074edcd5d7eb4456a6797911ec78e4d16e7d3ac96b919052a764b7ee4940fd6976346608ad8fed1eb6b0b14d84d802c594b3fd94378a26837df66b328f01cfd144f2e7bc166370bf7a833862173412d2798e8739ee7ef9b0568afab0fc69f66af19864480bf3e74fe2fd2043ec90396e40ab62dc9c1f32dee0e309af7561d2286380ebb497105bde2860d401ccfb4cfcd7047ad32e9408d37f5d0fe9a67bd964d5b138b2546a7d54647467c59384eaa20728cf240c460e36db68afdcf0291135f9d5ff58563f14856fd28534a5478ba2579234b247d0d5862c5742495a2ae18c5ca0d6461d641c5215b07e690280fa3eaf5d392e1d6e2791b181a500964d4bc6c76310e47468ae72edddc3c04d83363514c908624747118';
const responsePlain =
  'VendorTxCode=phpne-demo-56260425&VPSTxId={B7792365-F7F9-6E20-ACD1-390C5CEBDDAF}&Status=OK&StatusDetail=0000 : The Authorisation was Successful.&TxAuthNo=19052426&AVSCV2=SECURITY CODE MATCH ONLY&AddressResult=NOTMATCHED&PostCodeResult=NOTMATCHED&CV2Result=MATCHED&GiftAid=0&3DSecureStatus=NOTCHECKED&CardType=VISA&Last4Digits=0006&DeclineCode=00&ExpiryDate=1218&Amount=99.99&BankAuthCode=999777';

describe('the Opayo crypt', () => {
  it('encrypts the published request vector to the published crypt, in upper-case hex', () => {
    expect(encryptCrypt(requestPlain, requestPassword)).toBe(requestCrypt);
  });

  it('decrypts the published response vector, sent in lower-case hex', () => {
    expect(decryptCrypt(responseCrypt, responsePassword)).toBe(responsePlain);
    expect(decodeFields(decryptCrypt(responseCrypt, responsePassword))).toMatchObject({
      VendorTxCode: 'phpne-demo-56260425',
      VPSTxId: '{B7792365-F7F9-6E20-ACD1-390C5CEBDDAF}',
      Status: 'OK',
      TxAuthNo: '19052426',
      Amount: '99.99',
    });
  });

  it('reads the published response strictly, and refuses one with a field twice, a field not of the answer, no amount or noise in it', () => {
    expect(readOpayoResponse(responsePlain)).toMatchObject({ Status: 'OK', Amount: '99.99' });
    const refused = [
      `${responsePlain}&Status=OK`,
      responsePlain.replace('{B7792365-F7F9-6E20-ACD1-390C5CEBDDAF}', '{B7792365-F7F9-6E20-ACD1-390C5CEBDDA\u00ff}'),
      responsePlain.replace('Status=OK', 'Status=PAID'),
      responsePlain.replace('GiftAid=0', 'Gift\u0001Aid=0'),
      responsePlain.replace('CardType=VISA', 'CardType=VI\u0007SA'),
      responsePlain.replace('&GiftAid=0', '&GiftAid0'),
      responsePlain.replace('VendorTxCode=phpne-demo-56260425&', ''),
      // Only the answer's own fields: a request's (Currency, Description, Billing…) never come back.
      `${responsePlain}&Currency=GBP`,
      responsePlain.replace('GiftAid=0', 'BillingAddress1=0'),
      responsePlain.replace('&Amount=99.99', ''),
    ];
    for (const text of refused) expect(readOpayoResponse(text), text).toBeUndefined();
  });

  it('opens a Crypt without throwing, telling a good padding from a bad one', () => {
    expect(openCrypt(responseCrypt, responsePassword)).toEqual({ text: responsePlain, paddingValid: true });
    const blocks = Buffer.from(responseCrypt.slice(1), 'hex');
    // The last block alone, after a changed block: its padding decrypts to noise.
    const tampered = Buffer.concat([Buffer.alloc(16, 0x5a), blocks.subarray(blocks.length - 16)]);
    const opened = openCrypt(`@${tampered.toString('hex')}`, responsePassword);
    expect(opened.paddingValid).toBe(false);
    expect(opened.text).toHaveLength(32);
    expect(() => decryptCrypt(`@${tampered.toString('hex')}`, responsePassword)).toThrow();
    expect(openCrypt('@ZZ', responsePassword)).toEqual({ text: '', paddingValid: false });
  });

  it('round-trips ISO-8859-1 text', () => {
    const text = encodeFields([
      ['BillingSurname', "Sánchez-O'Brien"],
      ['Description', 'Tabla & more = £12.50'],
    ]);
    const crypt = encryptCrypt(text, 'LocalSandboxKey1');
    expect(crypt).toMatch(/^@[0-9A-F]+$/);
    expect(decryptCrypt(crypt, 'LocalSandboxKey1')).toBe(text);
    expect(decryptCrypt(crypt.toLowerCase(), 'LocalSandboxKey1')).toBe(text);
  });

  it.each(['', '@', '@XYZ', '@ABCD', 'not hex at all'])('refuses %j', (crypt) => {
    expect(() => decryptCrypt(crypt, 'LocalSandboxKey1')).toThrow();
  });

  it('refuses a crypt made with another password', () => {
    const crypt = encryptCrypt('Status=OK&Amount=10.00', 'LocalSandboxKey1');
    expect(() => {
      const text = decryptCrypt(crypt, 'AnotherPassword1');
      if (!text.startsWith('Status=')) throw new Error('garbage');
    }).toThrow();
  });
});
