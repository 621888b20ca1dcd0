import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export type Adjunto = { filename: string; contentType: string; content: Buffer };
export type Mail = { to: string; subject: string; text: string; attachments?: Adjunto[] };
export type Mailer = { send(mail: Mail): Promise<void>; from: string };

const encodeHeader = (v: string) => (/^[\x20-\x7e]*$/.test(v) ? v : `=?UTF-8?B?${Buffer.from(v, 'utf8').toString('base64')}?=`);

/**
 * SMTP when a URL is configured; otherwise each mail is written to `<dataDir>/outbox/` as an .eml
 * in 8-bit UTF-8 (readable, links intact) so password recovery works out of the box.
 */
export function createMailer(opts: { dataDir: string; smtpUrl?: string; from?: string; log: FastifyBaseLogger }): Mailer {
  const from = opts.from ?? 'Manager TPV <no-responder@manager-tpv.local>';
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      from,
      async send(mail) {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, attachments: mail.attachments });
      },
    };
  }
  const outbox = path.join(opts.dataDir, 'outbox');
  return {
    from,
    async send(mail) {
      await fs.mkdir(outbox, { recursive: true });
      const date = new Date();
      const name = `${date.toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}.eml`;
      const head = [`From: ${from}`, `To: ${mail.to}`, `Subject: ${encodeHeader(mail.subject)}`, `Date: ${date.toUTCString()}`, 'MIME-Version: 1.0'];
      const textPart = ['Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit', '', mail.text];
      let eml: string;
      if (!mail.attachments?.length) eml = [...head, ...textPart, ''].join('\r\n');
      else {
        // multipart/mixed: the text, then each attachment in base64 (76-character lines).
        const boundary = `mtpv-${crypto.randomBytes(12).toString('hex')}`;
        const parts = mail.attachments.map((a) => {
          const name = encodeHeader(a.filename.replace(/["\r\n]/g, '_'));
          return [
            `--${boundary}`,
            `Content-Type: ${a.contentType}; name="${name}"`,
            'Content-Transfer-Encoding: base64',
            `Content-Disposition: attachment; filename="${name}"`,
            '',
            ...(a.content.toString('base64').match(/.{1,76}/g) ?? []),
          ].join('\r\n');
        });
        eml = [...head, `Content-Type: multipart/mixed; boundary="${boundary}"`, '', `--${boundary}`, ...textPart, ...parts, `--${boundary}--`, ''].join('\r\n');
      }
      await fs.writeFile(path.join(outbox, name), eml, 'utf8');
      opts.log.info({ file: name }, 'mail written to outbox');
    },
  };
}
