import { describe, expect, it } from 'vitest';
import { readNameValueLines, readVspaccess, reportingElements, reportingSignature } from './opayo-admin-api.ts';

/**
 * The Reporting API's signature and the two answer formats a refund reads (ADR 0014). The
 * signatures are the ones a public integration's tests expect (the Magento Sage Pay Suite's
 * ReportingTest, with an empty vendor, user and password).
 */
describe('Opayo Reporting and Admin API', () => {
  it('signs the elements as sent, followed by the password, with MD5', () => {
    const none = { vendor: '', user: '' };
    const detail = reportingElements('getTransactionDetail', none, [['vpstxid', '12345']]);
    expect(detail).toBe(
      '<command>getTransactionDetail</command><vendor></vendor><user></user><vpstxid>12345</vpstxid>',
    );
    expect(reportingSignature(detail, '')).toBe('4a0787ba97d65455d24be4d1768133ac');
    expect(reportingSignature(reportingElements('getTokenCount', none, []), '')).toBe(
      'eca0a57c18e960a6cba53f685597b6c2',
    );
    expect(reportingSignature(detail, 'secret')).not.toBe('4a0787ba97d65455d24be4d1768133ac');
  });

  it('reads a getTransactionDetail answer, and nothing that is not one', () => {
    const answer = readVspaccess(
      `<?xml version="1.0"?><vspaccess><errorcode>0000</errorcode><timestamp>19/08/2020 21:49:34</timestamp>
      <vpstxid>6FBFB5E6-67AF-183C-3797-12D2F083373E</vpstxid><vendortxcode>RAAG-100001-0a1b2c3d4e5f</vendortxcode>
      <description>Tabla &amp; dhol</description><securitykey>3MEBBGXDTA</securitykey><vpsauthcode>400025055</vpsauthcode>
      <t3mresults><rule><score>4</score></rule></t3mresults><giftaid/></vspaccess>`,
    );
    expect(answer).toMatchObject({
      errorcode: '0000',
      vpstxid: '6FBFB5E6-67AF-183C-3797-12D2F083373E',
      vendortxcode: 'RAAG-100001-0a1b2c3d4e5f',
      description: 'Tabla & dhol',
      securitykey: '3MEBBGXDTA',
      vpsauthcode: '400025055',
      giftaid: '',
    });
    expect(readVspaccess('<html><body>Service unavailable</body></html>')).toBeUndefined();
  });

  it('reads a REFUND answer as Name=Value lines', () => {
    expect(
      readNameValueLines(
        'VPSProtocol=4.00\r\nStatus=OK\r\nStatusDetail=0000 : The Authorisation was Successful.\r\nVPSTxId={2D5AACEE-C6CD-0AD5-FA51-1CC429A64F03}\r\nTxAuthNo=2602459\r\n',
      ),
    ).toEqual({
      VPSProtocol: '4.00',
      Status: 'OK',
      StatusDetail: '0000 : The Authorisation was Successful.',
      VPSTxId: '{2D5AACEE-C6CD-0AD5-FA51-1CC429A64F03}',
      TxAuthNo: '2602459',
    });
  });
});
