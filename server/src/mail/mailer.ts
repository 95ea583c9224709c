import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { AppError } from '../http/errors.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Outgoing e-mail over SMTP (`SMTP_URL`); without it, sending fails with a clear error. */
export class Mailer {
  private readonly transport: Transporter | null;

  constructor(
    smtpUrl: string | undefined,
    private readonly from: string,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  }

  async send(mail: Mail): Promise<void> {
    if (!this.transport) throw new AppError('ERR_MAIL_NOT_CONFIGURED');
    await this.transport.sendMail({ from: this.from, ...mail });
  }

  close(): void {
    this.transport?.close();
  }
}
