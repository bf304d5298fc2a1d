/** Sending mail through the SMTP server of SMTP_URL (nodemailer); one transport per server. */
import nodemailer from "nodemailer";

/** A mail to send: plain text and HTML, and any extra headers. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/** Sends mail; a failure throws. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** A mailer for `smtpUrl`, sending from `from`. */
export function createMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    close: () => transport.close(),
  };
}
