/** Every user-facing message of the specification, verbatim, plus the product's own. */
export const MESSAGES = {
  emailRequired: 'Debe introducir una dirección de correo electrónico',
  passwordRequired: 'La contraseña no puede estar vacia',
  required: 'Este campo es necesario',
  usernameRequired: 'Debe introducir un nombre de usuario',
  selectOption: 'Seleccione una opción',
  selectDate: 'Seleccione una fecha',
  selectHour: 'Seleccione una hora',
  invalidEmail: 'La dirección de correo electrónico no es válida',
  invalidUsername: 'El nombre de usuario no es válido',
  invalidPassword: 'La contraseña no es válida',
  passwordTooShort: 'La contraseña es demasiado corta',
  emptyNotAllowed: 'No se permite un campo vacío',
  tooLong: 'El campo es demasiado largo',
  invalidNif: 'El NIF no es válido',
  invalidNumber: 'Debe ser un número válido',
  invalidPostalCode: 'El código postal no es válido',
  passwordsDiffer: 'Las contraseñas no coinciden',
  loginFailed: 'Usuario o contraseña incorrectos',
  tooManyAttempts: 'Demasiados intentos de acceso. Espere unos minutos y vuelva a intentarlo.',
  sessionExpired: 'Su sesión ha caducado. Vuelva a identificarse.',
  moduleOff: 'Este módulo no está activado en la configuración',
  forbiddenOrigin: 'Origen de la petición no permitido',
  notFound: 'No se ha encontrado el elemento solicitado',
  duplicated: 'Ya existe un elemento con este valor',
  cannotDeleteSelf: 'No puede eliminar su propio usuario',
  cannotDeactivateSelf: 'No puede desactivar su propio usuario',
  recoverySent:
    'Si la dirección pertenece a un usuario, recibirá un correo con un enlace para restablecer la contraseña. El enlace caduca en una hora.',
  recoveryInvalid: 'El enlace de recuperación no es válido o ha caducado',
  passwordChanged: 'La contraseña se ha cambiado. Ya puede identificarse.',
  invalidBackup: 'El archivo no es una copia de seguridad válida de Manager TPV',
  invalidFile: 'El archivo no es válido',
  fileTooLarge: 'El archivo es demasiado grande',
  unknownAction: 'Acción desconocida',
  remoteFailed: 'No se ha podido cargar esta sección.',
} as const;

/** Toasts of the specification (section 8), shown for 3000 ms. */
export const TOASTS = {
  success: { title: 'Exito!', text: 'Se ha completado la acción correctamente.' },
  error: { title: 'Error!', text: 'Ha ocurrido un error inesperado, intentelo de nuevo.' },
  associated: {
    title: 'Acción no posible',
    text: 'No se ha podido completar la acción debido a que existen datos asociados a este elemento',
  },
} as const;

/** Business constants of the specification (section 9). */
export const CONSTANTS = {
  toastMs: 3000,
  logoutDelayMs: 400,
  emptyResponseLimit: 5,
  chartMonths: 12,
  defaultColor: 'slate',
  cardPadding: 4,
  pageSizes: [10, 25, 50, 100] as const,
  defaultPageSize: 25,
  minPasswordLength: 8,
} as const;
